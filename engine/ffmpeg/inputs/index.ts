import type { InputSpec } from '../../types.ts';
import type { BuiltInput, InputContext } from '../context.ts';
import { fail } from '../validate.ts';
import { buildArgsInput } from './args.ts';
import { buildStorageInput } from './storage.ts';
import { buildUriInput } from './uri.ts';

/** One input spec → the ffmpeg arguments that open it. */
export function buildInput(input: InputSpec, ctx: InputContext): BuiltInput {
  switch (input?.type) {
    case 'uri':
      return buildUriInput(input, ctx);
    case 'storage':
      return buildStorageInput(input, ctx);
    case 'args':
      return buildArgsInput(input);
    default:
      fail(`Unknown input type "${String((input as { type?: unknown })?.type)}"`);
  }
}
