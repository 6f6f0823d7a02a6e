import { ApiError, type Schemas } from '../client.ts';

export type UploadedFile = Schemas['WatermarkFile'];

/**
 * POST /api/watermarks/files with the image as the raw body. XMLHttpRequest, not fetch: only it
 * reports the progress of an upload. `onProgress` gets 0 to 1.
 */
export function uploadWatermarkFile(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/watermarks/files?name=${encodeURIComponent(file.name)}`);
    request.withCredentials = true;
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = request.response as unknown;
      if (request.status === 201) {
        onProgress(1);
        resolve(body as UploadedFile);
      } else {
        reject(ApiError.from(request.status, body, request.getResponseHeader('x-request-id')));
      }
    };
    request.onerror = () => reject(new Error(`Uploading ${file.name} failed: the server could not be reached.`));
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
