import type { InputSpec } from '../../types.ts';
import type { BuiltInput } from '../context.ts';
import { assertPlainText, fail } from '../validate.ts';

type ArgsInput = Extract<InputSpec, { type: 'args' }>;

/**
 * The extension point for playlist, dvb, dev and multiviewer inputs: their own areas resolve them
 * to complete ffmpeg input arguments (options and one or more `-i`). They are passed through as
 * they are; the first input they open is the job's main source.
 */
export function buildArgsInput(input: ArgsInput): BuiltInput {
  if (!Array.isArray(input.args)) fail(`The ${input.source} input has no arguments`);
  const args = input.args.map((arg, i) => assertPlainText(arg, `${input.source} input argument ${i + 1}`, 8192));
  const inputCount = args.filter((arg, i) => arg === '-i' && i + 1 < args.length).length;
  if (inputCount === 0) fail(`The ${input.source} input's arguments open no input (no -i)`);
  if (args[args.length - 1] === '-i') fail(`The ${input.source} input's arguments end with -i and no source`);
  return { args, inputCount, programPrefix: '' };
}
