import type { Response } from 'express';
import { watermarkOperations } from '../../openapi/paths/watermarks.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const ops = watermarkOperations;

function sendImage(res: Response, image: { path: string; contentType: string }, cache: string): Promise<void> {
  res.setHeader('Cache-Control', cache);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The name was matched against the generated pattern: a data directory under a dot-folder is fine.
  return new Promise((resolve, reject) => res.sendFile(image.path, { dotfiles: 'allow', headers: { 'Content-Type': image.contentType } }, (error) => (error ? reject(error) : resolve())));
}

export function watermarkRoutes({ watermarks }: Services) {
  return [
    implement(ops.listWatermarks, async ({ query }) => watermarks.list(query)),
    implement(ops.getWatermark, async ({ params }) => watermarks.get(params.id)),
    implement(ops.createWatermark, async ({ body }) => watermarks.create(body)),
    implement(ops.updateWatermark, async ({ params, body }) => watermarks.update(params.id, body)),
    implement(ops.deleteWatermark, async ({ params }) => {
      await watermarks.delete(params.id);
      return { ok: true };
    }),
    implement(ops.uploadWatermarkFile, async ({ query, req }) => {
      const length = req.get('content-length');
      return watermarks.upload(req, query.name, length === undefined ? undefined : Number(length));
    }),
    // A stored upload never changes (a new image gets a new name); a watermark's image may.
    implement(ops.getWatermarkFile, async ({ params, res }) => sendImage(res, await watermarks.file(params.file), 'private, max-age=86400, immutable')),
    implement(ops.getWatermarkImage, async ({ params, res }) => sendImage(res, await watermarks.image(params.id), 'private, no-cache')),
  ];
}
