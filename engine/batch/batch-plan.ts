import path from 'node:path';
import type { InputSpec, JobSpec, OutputSpec } from '../types.ts';
import { expandGlob, hasGlobPattern, localPathOf } from './glob.ts';

/**
 * Batch VOD (spec 01 §2.6, §5): a VOD job whose uri input holds a glob pattern transcodes every
 * matching local file in turn. Each output names its files with placeholders taken from the source:
 * {SRC_SUB_DIR} (the file's directory relative to the glob's base, '' at the base),
 * {SRC_FILE_TITLE} (the name without its extension) and {SRC_FILE_EXT} (the extension without the dot).
 */
export const BATCH_PLACEHOLDERS = ['{SRC_SUB_DIR}', '{SRC_FILE_TITLE}', '{SRC_FILE_EXT}'] as const;

export const BATCH_MESSAGES = {
  vodUriOnly: 'Batch is only for VOD with a uri input.',
  needsGlob: 'The URL must contain a glob pattern.',
  localOnly: 'A batch input must be a local path: an absolute path or a file:// URL.',
  outputPlaceholder: 'Playback URLs must contain at least one of {SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}',
} as const;

export interface BatchItem {
  /** Absolute path of the source file. */
  sourceFile: string;
  /** The placeholder values for this file. */
  subDir: string;
  title: string;
  ext: string;
  /** The output templates with the placeholders filled in, in the order given. */
  outputs: string[];
}

export interface BatchPlan {
  base: string;
  /** The files still to transcode, in order. */
  items: BatchItem[];
  /** Files skipped because a previous run finished them. */
  skipped: string[];
}

/** True when an output template names its files by the source (has at least one placeholder). */
export function hasBatchPlaceholder(template: string): boolean {
  return BATCH_PLACEHOLDERS.some((placeholder) => template.includes(placeholder));
}

export interface BatchValidationIssue {
  path: string;
  message: string;
}

/**
 * The spec's batch rules for a job: VOD with a uri input, a local input URL with a glob pattern,
 * and every output template (the output's uri, or its directory for HLS/DASH/CMAF) with at least
 * one placeholder. `outputs` are the templates keyed by their field path, e.g. `output.0.uri`.
 */
export function validateBatch(job: { videoType: 'LIVE' | 'VOD'; inputType: string; inputUri?: string; outputs: { path: string; template: string }[] }): BatchValidationIssue[] {
  const issues: BatchValidationIssue[] = [];
  if (job.videoType !== 'VOD' || job.inputType !== 'uri') {
    issues.push({ path: job.videoType !== 'VOD' ? 'videoType' : 'input.type', message: BATCH_MESSAGES.vodUriOnly });
    return issues;
  }
  const uri = job.inputUri ?? '';
  if (!hasGlobPattern(uri)) issues.push({ path: 'input.uri', message: BATCH_MESSAGES.needsGlob });
  else if (localPathOf(uri) === null) issues.push({ path: 'input.uri', message: BATCH_MESSAGES.localOnly });
  for (const output of job.outputs) if (!hasBatchPlaceholder(output.template)) issues.push({ path: output.path, message: BATCH_MESSAGES.outputPlaceholder });
  return issues;
}

/** Fills the placeholders of one template; an empty {SRC_SUB_DIR} takes one of its slashes with it. */
export function fillBatchPlaceholders(template: string, item: Pick<BatchItem, 'subDir' | 'title' | 'ext'>): string {
  let filled = template;
  if (item.subDir === '') filled = filled.replaceAll('{SRC_SUB_DIR}/', '').replaceAll('/{SRC_SUB_DIR}', '');
  return filled.replaceAll('{SRC_SUB_DIR}', item.subDir).replaceAll('{SRC_FILE_TITLE}', item.title).replaceAll('{SRC_FILE_EXT}', item.ext);
}

/** The placeholder values of a source file below the glob's base directory. */
export function batchNames(base: string, sourceFile: string): Pick<BatchItem, 'subDir' | 'title' | 'ext'> {
  const relativeDir = path.relative(base, path.dirname(sourceFile));
  const subDir = relativeDir === '' ? '' : relativeDir.split(path.sep).join('/');
  const name = path.basename(sourceFile);
  const ext = path.extname(name);
  return { subDir, title: ext ? name.slice(0, -ext.length) : name, ext: ext.slice(1) };
}

/** The plan for files already found (pure): each file with its outputs, the done ones skipped. */
export function planBatchFiles(base: string, files: readonly string[], outputs: readonly string[], doneFiles: Iterable<string> = []): BatchPlan {
  const done = new Set([...doneFiles].map((file) => path.resolve(file)));
  const items: BatchItem[] = [];
  const skipped: string[] = [];
  for (const sourceFile of files) {
    if (done.has(path.resolve(sourceFile))) {
      skipped.push(sourceFile);
      continue;
    }
    const names = batchNames(base, sourceFile);
    items.push({ sourceFile, ...names, outputs: outputs.map((template) => fillBatchPlaceholders(template, names)) });
  }
  return { base, items, skipped };
}

/**
 * Expands the input glob (sorted) and plans it: `outputs` are output templates (paths or URLs with
 * placeholders), `doneFiles` the source files a previous run finished, skipped when restarted.
 */
export async function planBatch(inputGlob: string, outputs: readonly string[], doneFiles: Iterable<string> = []): Promise<BatchPlan> {
  const { base, files } = await expandGlob(inputGlob);
  return planBatchFiles(base, files, outputs, doneFiles);
}

/**
 * The job for one batch file: the input becomes that file and every output's target (uri, host
 * path or directory) gets the placeholders filled. The rest of the job is unchanged.
 */
export function batchItemJob(job: JobSpec, item: BatchItem): JobSpec {
  const fill = (value: string) => fillBatchPlaceholders(value, item);
  const input: InputSpec = job.input.type === 'uri' ? { ...job.input, uri: item.sourceFile } : { type: 'storage', path: item.sourceFile };
  const outputs = job.outputs.map((output): OutputSpec => {
    switch (output.type) {
      case 'hls':
      case 'dash':
      case 'cmaf':
        return { ...output, dir: fill(output.dir) };
      case 'rtmp':
        return { ...output, url: fill(output.url) };
      case 'srt':
        return output.streamId === undefined ? output : { ...output, streamId: fill(output.streamId) };
      default:
        return output;
    }
  });
  return { ...job, input, outputs, failover: undefined };
}
