import type { InputSpec } from '../../types.ts';
import type { BuiltInput, InputContext } from '../context.ts';
import { fileInputArgs } from './uri.ts';

type StorageInput = Extract<InputSpec, { type: 'storage' }>;

/**
 * A file inside a storage root. The caller has already resolved it to an absolute path inside its
 * root (and refused paths outside it); here it is only read, at native rate for a LIVE job.
 */
export function buildStorageInput(input: StorageInput, ctx: InputContext): BuiltInput {
  return { args: fileInputArgs(input.path, ctx, 'Storage path'), inputCount: 1, programPrefix: '' };
}
