/**
 * intel_gpu_top readings for the dashboard's Intel Quick Sync card (spec 03 §3: renderUsed,
 * video1Used, video2Used). `intel_gpu_top -J -s <ms>` writes a JSON sample per period: an array
 * that stays open while it runs (older versions: objects separated by commas, no brackets).
 * Each sample has `engines` keyed by class and instance: "Render/3D/0", "Video/0", "Video/1",
 * "VideoEnhance/0", "Blitter/0" (newer versions without "/0" when instances are merged).
 */
import { execa } from 'execa';

export interface QuickSyncReading {
  renderUsed: number | null;
  video1Used: number | null;
  video2Used: number | null;
}

/** The complete top-level JSON objects in `text`, in order; an unterminated last one is left out. */
export function completeJsonObjects(text: string): string[] {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0 && start >= 0) objects.push(text.slice(start, i + 1));
    }
  }
  return objects;
}

type Engines = Record<string, { busy?: number }>;

function busyOf(engines: Engines, ...names: string[]): number | null {
  for (const name of names) {
    const busy = engines[name]?.busy;
    if (typeof busy === 'number' && Number.isFinite(busy)) return Math.round(busy * 10) / 10;
  }
  return null;
}

export function readingOfSample(sample: { engines?: Engines }): QuickSyncReading | null {
  const engines = sample.engines;
  if (!engines || typeof engines !== 'object') return null;
  return {
    renderUsed: busyOf(engines, 'Render/3D/0', 'Render/3D'),
    video1Used: busyOf(engines, 'Video/0', 'Video'),
    video2Used: busyOf(engines, 'Video/1'),
  };
}

/** The reading of the last complete sample in the output; null when there is none. */
export function parseIntelGpuTop(text: string): QuickSyncReading | null {
  const objects = completeJsonObjects(text);
  for (let i = objects.length - 1; i >= 0; i--) {
    try {
      const reading = readingOfSample(JSON.parse(objects[i]) as { engines?: Engines });
      if (reading) return reading;
    } catch {
      // a torn sample: try the one before
    }
  }
  return null;
}

export const intelGpuTopArgs = (periodMs: number) => ['-J', '-s', String(periodMs)];

/**
 * Run intel_gpu_top for two periods (the first sample of a run covers no full period) and read
 * the last sample; bounded, killed when done. No tool or no Intel GPU: null.
 */
export async function readQuickSync(options: { command?: string; periodMs?: number } = {}): Promise<QuickSyncReading | null> {
  const periodMs = options.periodMs ?? 500;
  const child = execa(options.command ?? 'intel_gpu_top', intelGpuTopArgs(periodMs), { reject: false, stdin: 'ignore', timeout: periodMs * 2 + 2000, buffer: false });
  let text = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    text += chunk;
    if (completeJsonObjects(text).length >= 2) child.kill('SIGTERM');
  });
  await child;
  return parseIntelGpuTop(text);
}
