import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { ErrorBody } from '../schemas/common.ts';

export const streamOperations = {
  getStreamKey: defineOperation({
    operationId: 'getStreamKey',
    method: 'get',
    path: '/api/streams/keys/{name}',
    tag: 'streams',
    summary: 'The AES-128 key of an encrypted HLS output, as its playlist names it',
    description: 'Players fetch it with the session cookie (the console\'s monitor) or a personal API token. The segments themselves are served at /streams/ without sign-in, like any origin; only their keys are guarded.',
    permission: { anyOf: ['RELAY_VIEW', 'ENCODING_VIEW'] },
    params: z.object({ name: z.string().regex(/^(relay|encoding)-\d+-\d+\.key$/, 'must be a key name like encoding-12-0.key') }),
    responses: {
      200: { description: 'The 16-byte key.', contentType: 'application/octet-stream', schema: z.string().describe('16 bytes.') },
      404: { description: 'No such key.', schema: ErrorBody },
    },
  }),
};
