import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/icons.tsx';
import { messageOf } from '../../data/client.ts';
import { uploadWatermarkFile, type UploadedFile } from '../../data/watermarks/upload.ts';

interface Upload {
  key: number;
  name: string;
  progress: number;
  result?: UploadedFile;
  error?: string;
}

export const UPLOAD_HELP = 'You can upload several images at once (PNG, JPEG, GIF or WebP, up to 10 MB each); choose the one this watermark shows.';

/**
 * Spec 03 §2, §4: upload one or several images; each shows a progress bar while it goes, then its
 * file name. The first to arrive is chosen when none is; another can be chosen with Use.
 */
export function WatermarkUploader({ chosen, onChoose, disabled }: { chosen: string; onChoose: (file: UploadedFile) => void; disabled?: boolean }) {
  const id = useId();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const next = useRef(0);
  const chosenRef = useRef(chosen);
  chosenRef.current = chosen;
  const aborts = useRef(new Set<AbortController>());
  useEffect(() => () => aborts.current.forEach((a) => a.abort()), []);

  const patch = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  function start(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      const key = next.current++;
      const abort = new AbortController();
      aborts.current.add(abort);
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      uploadWatermarkFile(file, (fraction) => patch(key, { progress: fraction }), abort.signal)
        .then((result) => {
          patch(key, { progress: 1, result });
          if (!chosenRef.current) {
            chosenRef.current = result.file;
            onChoose(result);
          }
        })
        .catch((error: unknown) => {
          if ((error as Error)?.name !== 'AbortError') patch(key, { error: messageOf(error) });
        })
        .finally(() => aborts.current.delete(abort));
    }
  }

  return (
    <div className="watermark-uploader">
      <label htmlFor={id} className={`button button-secondary${disabled ? ' is-disabled' : ''}`}>
        <Icon name="upload" />
        Upload images
      </label>
      <input
        id={id}
        type="file"
        className="visually-hidden"
        accept="image/png,image/jpeg,image/gif,image/webp"
        multiple
        disabled={disabled}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          start(e.target.files);
          e.target.value = '';
        }}
      />
      <p id={`${id}-help`} className="field-hint">
        {UPLOAD_HELP}
      </p>
      {uploads.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.key} className={upload.result?.file === chosen ? 'is-chosen' : undefined}>
              {upload.error ? (
                <span className="field-error" role="alert">
                  {upload.name}: {upload.error}
                </span>
              ) : upload.result ? (
                <>
                  <span className="upload-name">
                    <Icon name="check" size={14} /> {upload.result.originalName}
                  </span>
                  <span className="muted">
                    {upload.result.format.toUpperCase()} {upload.result.width}x{upload.result.height}
                  </span>
                  {upload.result.file === chosen ? (
                    <span className="badge badge-primary">In use</span>
                  ) : (
                    <button type="button" className="link-button" disabled={disabled} onClick={() => upload.result && onChoose(upload.result)}>
                      Use {upload.result.originalName}
                    </button>
                  )}
                </>
              ) : (
                <>
                  <span className="upload-name">{upload.name}</span>
                  <progress max={1} value={upload.progress} aria-label={`Uploading ${upload.name}`} />
                  <span className="muted">{Math.round(upload.progress * 100)}%</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
