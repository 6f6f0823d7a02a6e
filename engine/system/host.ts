/**
 * The host readings of the dashboard (spec 03 §3 Dashboard status): CPU load and cores, load
 * averages, uptime, local time, memory, disk and bandwidth. CPU and memory come from
 * systeminformation (which reads /proc, no child process); disk from statfs and bandwidth from
 * /proc/net/dev, so one sample costs a few file reads and nothing is spawned.
 */
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import si from 'systeminformation';

export interface HostReading {
  cpu: number;
  cpuCoreCount: number;
  cpuAverageLoad: { minute1: number; minute5: number; minute15: number };
  uptime: number;
  localTime: string;
  timezone: string;
  memoryTotal: number;
  memoryAvailable: number;
  memoryPercentage: number;
  hddTotal: number;
  hddFree: number;
  hddPercentage: number;
  /** Bits per second over the last period, all interfaces but loopback. */
  bandwidthIn: number;
  bandwidthOut: number;
}

export interface NetCounters {
  rxBytes: number;
  txBytes: number;
  at: number;
}

/** Totals of /proc/net/dev, loopback left out. */
export function parseProcNetDev(text: string, at = Date.now()): NetCounters {
  let rxBytes = 0;
  let txBytes = 0;
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (name === 'lo') continue;
    const values = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    rxBytes += values[0] || 0;
    txBytes += values[8] || 0;
  }
  return { rxBytes, txBytes, at };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** A local time as yyyy-MM-dd HH:mm:ss with the UTC offset, e.g. 2026-11-22 15:04:05 +01:00. */
export function formatLocalTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Samples the host; keeps the last network counters to turn them into rates. */
export class HostSampler {
  private lastNet: NetCounters | undefined;

  constructor(private readonly diskPath = '/') {}

  async sample(): Promise<HostReading> {
    const [load, mem, disk, net] = await Promise.all([
      si.currentLoad(),
      si.mem(),
      statfs(this.diskPath).catch(() => undefined),
      readFile('/proc/net/dev', 'utf8').then((t) => parseProcNetDev(t)).catch(() => undefined),
    ]);
    const [m1, m5, m15] = os.loadavg();
    const hddTotal = disk ? disk.blocks * disk.bsize : 0;
    const hddFree = disk ? disk.bavail * disk.bsize : 0;
    let bandwidthIn = 0;
    let bandwidthOut = 0;
    if (net && this.lastNet && net.at > this.lastNet.at) {
      const seconds = (net.at - this.lastNet.at) / 1000;
      bandwidthIn = Math.max(0, Math.round(((net.rxBytes - this.lastNet.rxBytes) * 8) / seconds));
      bandwidthOut = Math.max(0, Math.round(((net.txBytes - this.lastNet.txBytes) * 8) / seconds));
    }
    if (net) this.lastNet = net;
    const now = new Date();
    return {
      cpu: round1(load.currentLoad),
      cpuCoreCount: os.cpus().length,
      cpuAverageLoad: { minute1: round1(m1 * 100) / 100, minute5: round1(m5 * 100) / 100, minute15: round1(m15 * 100) / 100 },
      uptime: Math.floor(os.uptime()),
      localTime: formatLocalTime(now),
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      memoryTotal: mem.total,
      memoryAvailable: mem.available,
      memoryPercentage: mem.total ? round1(((mem.total - mem.available) / mem.total) * 100) : 0,
      hddTotal,
      hddFree,
      hddPercentage: hddTotal ? round1(((hddTotal - hddFree) / hddTotal) * 100) : 0,
      bandwidthIn,
      bandwidthOut,
    };
  }
}
