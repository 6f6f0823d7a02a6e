import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { IMAGE_CONTENT_TYPES, IMAGE_EXTENSIONS, readImageHeader, type ImageHeader } from '../../engine/probe/image-header.ts';
import { WATERMARK_FILE_PATTERN, WATERMARK_MAX_BYTES, WATERMARK_MAX_PIXELS, type WatermarkFileDto } from '../../openapi/schemas/watermarks.ts';
import { AppError, NotFoundError, ValidationError } from '../errors.ts';

/** An upload left unused this long is removed by the next upload. */
const UNUSED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
const MEGABYTES = WATERMARK_MAX_BYTES / (1024 * 1024);

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(413, 'PAYLOAD_TOO_LARGE', `The image is larger than ${MEGABYTES} MB.`);
  }
}

/** The body, up to `limit` bytes; a larger one is read to its end (so the answer reaches the client) and refused. */
async function readLimited(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) throw new PayloadTooLargeError();
  return Buffer.concat(chunks);
}

/**
 * The watermark images in the data directory's watermarks folder. Names are generated here
 * (`wm-<time>-<random>.<ext>`, the extension from the content); a name given by a client is only
 * ever matched against that pattern, so no request can reach a path outside the folder.
 */
export class WatermarkFiles {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  pathOf(file: string): string {
    if (!WATERMARK_FILE_PATTERN.test(file)) throw new NotFoundError('Watermark image', file);
    return path.join(this.dir, file);
  }

  contentTypeOf(file: string): string {
    const ext = path.extname(file).slice(1);
    const format = (Object.keys(IMAGE_EXTENSIONS) as (keyof typeof IMAGE_EXTENSIONS)[]).find((f) => IMAGE_EXTENSIONS[f] === ext);
    return format ? IMAGE_CONTENT_TYPES[format] : 'application/octet-stream';
  }

  /** Store an uploaded image after checking by its content that it is a PNG, JPEG, GIF or WebP of a usable size. */
  async store(body: Readable, originalName: string, declaredLength?: number): Promise<WatermarkFileDto> {
    if (declaredLength !== undefined && declaredLength > WATERMARK_MAX_BYTES) {
      body.resume();
      throw new PayloadTooLargeError();
    }
    const bytes = await readLimited(body, WATERMARK_MAX_BYTES);
    if (bytes.length === 0) throw ValidationError.field('body', 'The upload is empty: send the image as the request body');
    const header = readImageHeader(bytes);
    if (!header) throw ValidationError.field('body', `${originalName} is not a PNG, JPEG, GIF or WebP image`);
    if (header.width > WATERMARK_MAX_PIXELS || header.height > WATERMARK_MAX_PIXELS) {
      throw ValidationError.field('body', `${originalName} is ${header.width}×${header.height} pixels; at most ${WATERMARK_MAX_PIXELS}×${WATERMARK_MAX_PIXELS} are taken`);
    }
    await mkdir(this.dir, { recursive: true });
    const file = `wm-${this.now().toString(36)}-${randomBytes(8).toString('hex')}.${IMAGE_EXTENSIONS[header.format]}`;
    const partial = path.join(this.dir, `.${file}.part`);
    await writeFile(partial, bytes, { mode: 0o644 });
    await rename(partial, path.join(this.dir, file));
    return { file, originalName, format: header.format, width: header.width, height: header.height, size: bytes.length };
  }

  /** The format and size of a stored image; undefined when there is no such file (or it is not an image). */
  async header(file: string): Promise<ImageHeader | undefined> {
    if (!WATERMARK_FILE_PATTERN.test(file)) return undefined;
    try {
      return readImageHeader(await readFile(path.join(this.dir, file)));
    } catch {
      return undefined;
    }
  }

  async remove(file: string): Promise<void> {
    if (WATERMARK_FILE_PATTERN.test(file)) await unlink(path.join(this.dir, file)).catch(() => {});
  }

  /** Remove uploads no watermark took within a day (an abandoned form leaves them behind). */
  async sweep(inUse: ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    const cutoff = this.now() - UNUSED_UPLOAD_TTL_MS;
    for (const name of names) {
      if (!WATERMARK_FILE_PATTERN.test(name) || inUse.has(name)) continue;
      const info = await stat(path.join(this.dir, name)).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await this.remove(name);
    }
  }
}
