import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { HostSampler, type HostReading } from '../../engine/system/host.ts';
import { readQuickSync, type QuickSyncReading } from '../../engine/system/intel-gpu-top.ts';
import { readNvidiaGpus, type NvidiaGpu } from '../../engine/system/nvidia-smi.ts';

/** One sample of this machine: the host, its GPUs (none when there are none). */
export interface MachineSample {
  at: Date;
  host: HostReading;
  gpus: NvidiaGpu[];
  quickSync: QuickSyncReading | null;
}

export const SAMPLE_INTERVAL_MS = 2000;

async function onPath(command: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      await access(path.join(dir, command));
      return true;
    } catch {
      // not in this one
    }
  }
  return false;
}

/** An Intel GPU is a DRM card whose PCI vendor is 0x8086. */
async function hasIntelGpu(): Promise<boolean> {
  const cards = await readdir('/sys/class/drm').catch(() => [] as string[]);
  for (const card of cards.filter((c) => /^card\d+$/.test(c))) {
    const vendor = await readFile(`/sys/class/drm/${card}/device/vendor`, 'utf8').catch(() => '');
    if (vendor.trim() === '0x8086') return true;
  }
  return false;
}

type Listener = (sample: MachineSample) => void;

/**
 * The one sampler of this machine, shared by every open dashboard: it starts when the first
 * listener subscribes and stops when the last leaves, so N consoles cost one sample per interval.
 * The GPU tools run only when their devices exist (looked up once per start).
 */
export class SystemSampler {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private host = new HostSampler();
  private devices: Promise<{ nvidia: boolean; intel: boolean }> | undefined;
  last: MachineSample | undefined;
  /** Samples taken since this process started (for tests and measurements). */
  samples = 0;

  constructor(private readonly intervalMs = SAMPLE_INTERVAL_MS) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  get active(): boolean {
    return this.timer !== undefined;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.last && Date.now() - this.last.at.getTime() < this.intervalMs) listener(this.last);
    if (!this.timer) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** One sample for a caller that does not stay: the last one when fresh, else a new one. */
  async once(): Promise<MachineSample> {
    if (this.last && Date.now() - this.last.at.getTime() < this.intervalMs) return this.last;
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe((sample) => {
        queueMicrotask(() => unsubscribe());
        resolve(sample);
      });
    });
  }

  private start(): void {
    this.devices ??= Promise.all([onPath('nvidia-smi'), onPath('intel_gpu_top').then(async (tool) => tool && (await hasIntelGpu()))]).then(([nvidia, intel]) => ({ nvidia, intel }));
    this.host = new HostSampler();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
    void this.tick();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const devices = await this.devices!;
      const [host, gpus, quickSync] = await Promise.all([
        this.host.sample(),
        devices.nvidia ? readNvidiaGpus().catch(() => []) : Promise.resolve([]),
        devices.intel ? readQuickSync().catch(() => null) : Promise.resolve(null),
      ]);
      const sample: MachineSample = { at: new Date(), host, gpus, quickSync };
      this.last = sample;
      this.samples++;
      for (const listener of [...this.listeners]) listener(sample);
    } catch {
      // a failed sample: the next one tries again
    } finally {
      this.running = false;
    }
  }
}
