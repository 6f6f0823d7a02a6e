/**
 * nvidia-smi readings for the dashboard's GPU cards (spec 03 §3: name, temperature, processes,
 * SM, ENC, DEC, MEM). Two queries in the CSV form nvidia-smi documents for scripts:
 *   nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits
 *   nvidia-smi --query-compute-apps=<fields> --format=csv,noheader,nounits
 * Parsers are pure (tested on recorded outputs); `readNvidiaGpus` runs them bounded in time.
 */
import { execa } from 'execa';

export const NVIDIA_GPU_FIELDS = ['index', 'uuid', 'name', 'temperature.gpu', 'utilization.gpu', 'utilization.encoder', 'utilization.decoder', 'utilization.memory', 'memory.used', 'memory.total'] as const;
export const NVIDIA_APP_FIELDS = ['gpu_uuid', 'pid', 'process_name', 'used_memory'] as const;

export const NVIDIA_GPU_ARGS = [`--query-gpu=${NVIDIA_GPU_FIELDS.join(',')}`, '--format=csv,noheader,nounits'];
export const NVIDIA_APP_ARGS = [`--query-compute-apps=${NVIDIA_APP_FIELDS.join(',')}`, '--format=csv,noheader,nounits'];

export interface GpuProcess {
  pid: number;
  name: string;
  usedMemoryMiB: number | null;
}

export interface NvidiaGpu {
  index: number;
  uuid: string;
  name: string;
  temperature: number | null;
  /** Streaming multiprocessors busy, percent. */
  streamingMultiprocessorUsagePercent: number | null;
  encoderUsed: number | null;
  decoderUsed: number | null;
  /** Memory controller busy, percent (nvidia-smi's utilization.memory). */
  memoryUsed: number | null;
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
  processes: GpuProcess[];
}

/** `[N/A]`, `[Not Supported]`, `N/A` and empty read as null. */
function numberOrNull(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '' || /^\[?(n\/a|not supported|unknown error|insufficient permissions)\]?$/i.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** Split one CSV line of nvidia-smi (no quoting; fields separated by ", "). Names may hold commas only at the end field. */
function fields(line: string, count: number): string[] | null {
  const parts = line.split(',').map((p) => p.trim());
  if (parts.length < count) return null;
  if (parts.length === count) return parts;
  return null;
}

export function parseNvidiaGpus(text: string): NvidiaGpu[] {
  const gpus: NvidiaGpu[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const f = fields(line, NVIDIA_GPU_FIELDS.length);
    if (!f) continue;
    const index = numberOrNull(f[0]);
    if (index === null) continue;
    gpus.push({
      index,
      uuid: f[1],
      name: f[2],
      temperature: numberOrNull(f[3]),
      streamingMultiprocessorUsagePercent: numberOrNull(f[4]),
      encoderUsed: numberOrNull(f[5]),
      decoderUsed: numberOrNull(f[6]),
      memoryUsed: numberOrNull(f[7]),
      memoryUsedMiB: numberOrNull(f[8]),
      memoryTotalMiB: numberOrNull(f[9]),
      processes: [],
    });
  }
  return gpus;
}

export function parseNvidiaApps(text: string): Array<GpuProcess & { gpuUuid: string }> {
  const apps: Array<GpuProcess & { gpuUuid: string }> = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || /no running/i.test(line)) continue;
    const parts = line.split(',').map((p) => p.trim());
    if (parts.length < 4) continue;
    // A process name may hold commas: the first two fields and the last are fixed.
    const pid = numberOrNull(parts[1]);
    if (pid === null) continue;
    apps.push({ gpuUuid: parts[0], pid, name: parts.slice(2, -1).join(','), usedMemoryMiB: numberOrNull(parts[parts.length - 1]) });
  }
  return apps;
}

/** The GPUs with their processes attached by uuid. */
export function joinNvidiaReadings(gpusText: string, appsText: string): NvidiaGpu[] {
  const gpus = parseNvidiaGpus(gpusText);
  for (const app of parseNvidiaApps(appsText)) {
    const gpu = gpus.find((g) => g.uuid === app.gpuUuid);
    if (gpu) gpu.processes.push({ pid: app.pid, name: app.name, usedMemoryMiB: app.usedMemoryMiB });
  }
  return gpus;
}

/** Run both queries (each bounded); no nvidia-smi or no GPU: an empty list. */
export async function readNvidiaGpus(options: { command?: string; timeoutMs?: number } = {}): Promise<NvidiaGpu[]> {
  const command = options.command ?? 'nvidia-smi';
  const timeout = options.timeoutMs ?? 3000;
  const [gpus, apps] = await Promise.all([
    execa(command, NVIDIA_GPU_ARGS, { reject: false, timeout, stdin: 'ignore' }),
    execa(command, NVIDIA_APP_ARGS, { reject: false, timeout, stdin: 'ignore' }),
  ]);
  if (gpus.exitCode !== 0 || typeof gpus.stdout !== 'string') return [];
  return joinNvidiaReadings(gpus.stdout, apps.exitCode === 0 && typeof apps.stdout === 'string' ? apps.stdout : '');
}
