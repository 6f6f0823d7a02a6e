import { uploadedFileUrl } from '../../data/watermarks/keys.ts';
import type { ImageSize } from './watermarkFormModel.ts';

export interface WatermarkPreviewProps {
  file: string;
  frame: ImageSize;
  scaled: ImageSize;
  x: number;
  y: number;
  /** Transparency 0 (opaque) to 100 (invisible). */
  alpha: number;
}

const percentOf = (part: number, whole: number) => `${whole > 0 ? (part / whole) * 100 : 0}%`;

/**
 * The image where the encoding will lay it: scaled, at x/y inside a frame of the resolution's
 * proportions, with its transparency, as ffmpeg's overlay does.
 */
export function WatermarkPreview({ file, frame, scaled, x, y, alpha }: WatermarkPreviewProps) {
  if (frame.width <= 0 || frame.height <= 0) return <div className="watermark-preview-empty muted">Set the resolution's width and height to see the preview.</div>;
  return (
    <figure className="watermark-preview">
      <div className="watermark-frame" style={{ aspectRatio: `${frame.width} / ${frame.height}` }} role="img" aria-label={`Preview: the watermark at ${x},${y} in ${frame.width}x${frame.height}`}>
        {file && scaled.width > 0 && scaled.height > 0 && (
          <img
            src={uploadedFileUrl(file)}
            alt=""
            className="watermark-frame-image"
            style={{ left: percentOf(x, frame.width), top: percentOf(y, frame.height), width: percentOf(scaled.width, frame.width), height: percentOf(scaled.height, frame.height), opacity: (100 - alpha) / 100 }}
          />
        )}
      </div>
      <figcaption className="muted">
        {frame.width}x{frame.height} · image {scaled.width}x{scaled.height} at {x},{y}
      </figcaption>
    </figure>
  );
}
