import { execFile, spawnSync } from 'node:child_process';
import { isIP } from 'node:net';
import { findExecutable } from '../srt/srt-bridge.ts';
import { NftSession } from './nft-session.ts';

/**
 * Bytes of UDP flows counted by the kernel (nftables counters): what a UDP or RTP input receives and
 * what a UDP or RTP output sends, whatever ffmpeg reports (ffmpeg 5.1 reports no input bytes at all,
 * and no output bytes behind its tee muxer). The packets are only counted, never held or changed:
 * the rules have no verdict, in chains whose policy is accept.
 *
 * - One table per node process, `inet mediaplane_io_<pid>`, with a named counter per flow, found
 *   through maps by the packet's port (`udp dport 5000`), or its address and port (`ip daddr
 *   239.1.1.1 . udp dport 5000` for a multicast group, `ip daddr <host> . udp dport <port>` for an
 *   output). Six fixed rules look a packet up in the maps: one hash lookup per packet however many
 *   flows are counted (a rule per flow cost every packet a walk through all of them, which showed
 *   in the jobs' own CPU at 50 relays). Jobs that read or send the same flow share its counter.
 *   A direction's chain (its hook) exists only while a flow of that direction is counted: a job
 *   whose only output ffmpeg counts itself adds nothing to the path of the packets it sends.
 * - All counters are read with one command to a long-lived `nft -j -i` (nft-session.ts), shared by
 *   every job sampled within a second.
 * - The table exists only while it counts a flow (it goes with the last one, and when the process
 *   exits); a table left by a process killed outright is deleted by the next node process that
 *   starts counting on this machine.
 * - Needs nftables and the right to use it (root or CAP_NET_ADMIN); without them every flow is
 *   "not measured" (watch() gives undefined) and nothing else changes.
 *
 * The counts are of UDP payload: the kernel counts IP packets, so 28 bytes of IPv4 and UDP headers
 * per packet are taken off (48 for an IPv6 address; a flow matched by port alone is taken as IPv4).
 */
export interface UdpFlow {
  direction: 'in' | 'out';
  port: number;
  /** An IP address: the multicast group an input joins, or the host an output sends to. */
  address?: string;
}

export interface UdpFlowCount {
  packets: number;
  /** UDP payload bytes. */
  bytes: number;
  /** When the kernel gave these counts (ms since the epoch): a reading may serve callers for a second. */
  at: number;
}

export interface UdpFlowWatch {
  read(): Promise<UdpFlowCount | undefined>;
  release(): Promise<void>;
}

const TABLE_PREFIX = 'mediaplane_io_';
const READ_REUSE_MS = 1_000;

function run(file: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[file, ...args].join(' ')}: ${String(stderr).trim() || error.message}`));
      else resolve(String(stdout));
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

function hexOf(address: string): string {
  if (isIP(address) === 4) return address.split('.').map((n) => Number(n).toString(16).padStart(2, '0')).join('');
  return address.replace(/[^0-9a-f]/gi, '').toLowerCase();
}

/** The counter's name for a flow (one per direction, address and port). */
export function flowName(flow: UdpFlow): string {
  return `${flow.direction}_${flow.address ? hexOf(flow.address) : 'any'}_${flow.port}`;
}

/** The map a flow's counter is found in, and its key there. */
export function flowElement(flow: UdpFlow): { map: string; key: string } {
  if (!flow.address) return { map: `${flow.direction}_port`, key: String(flow.port) };
  return { map: `${flow.direction}_${isIP(flow.address) === 6 ? 'v6' : 'v4'}`, key: `${flow.address} . ${flow.port}` };
}

/** The nft commands that start counting a flow into its named counter. */
export function flowCommands(table: string, flow: UdpFlow): string {
  const name = flowName(flow);
  const { map, key } = flowElement(flow);
  return `add counter inet ${table} ${name}\nadd element inet ${table} ${map} { ${key} : "${name}" }\n`;
}

const CHAINS = { in: 'input', out: 'output' } as const;

/** A direction's chain: counting only (policy accept, no verdicts), three map lookups per packet. */
export function chainScript(table: string, direction: 'in' | 'out'): string {
  const chain = CHAINS[direction];
  return [
    `add chain inet ${table} ${chain} { type filter hook ${chain} priority -300; policy accept; }`,
    `add rule inet ${table} ${chain} counter name udp dport map @${direction}_port`,
    `add rule inet ${table} ${chain} counter name ip daddr . udp dport map @${direction}_v4`,
    `add rule inet ${table} ${chain} counter name ip6 daddr . udp dport map @${direction}_v6`,
    '',
  ].join('\n');
}

export class KernelUdpCounters {
  readonly table: string;
  private ready: Promise<string | undefined> | undefined;
  /** Changed only inside `serial` tasks, with the flows. */
  private tableExists = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly flows = new Map<string, { refs: number }>();
  /** Flows counted per direction: a direction's chain exists only while it counts one (a hook on every packet otherwise for nothing). */
  private readonly chainFlows = { in: 0, out: 0 };
  private reading: { at: number; counts: Promise<{ at: number; counts: Map<string, { packets: number; bytes: number }> }> } | undefined;
  /** Reads the counters without a spawn per read (nft-session.ts). */
  private session: NftSession | undefined;

  constructor(private readonly options: { nftPath?: string; table?: string } = {}) {
    this.table = options.table ?? `${TABLE_PREFIX}${process.pid}`;
  }

  /** Starts counting a flow; undefined when the kernel's counters cannot be used here. */
  async watch(flow: UdpFlow): Promise<UdpFlowWatch | undefined> {
    if (!Number.isInteger(flow.port) || flow.port < 1 || flow.port > 65535) return undefined;
    if (flow.address !== undefined && isIP(flow.address) === 0) return undefined;
    const nft = await this.prepare();
    if (!nft) return undefined;
    const name = flowName(flow);
    const ok = await this.serial(async () => {
      const known = this.flows.get(name);
      if (known) {
        known.refs++;
        return true;
      }
      try {
        const table = this.tableExists ? '' : this.tableScript();
        const chain = this.chainFlows[flow.direction] === 0 ? chainScript(this.table, flow.direction) : '';
        await run(nft, ['-f', '-'], `${table}${chain}${flowCommands(this.table, flow)}`);
        this.tableExists = true;
        this.chainFlows[flow.direction]++;
        this.flows.set(name, { refs: 1 });
        return true;
      } catch {
        return false;
      }
    });
    if (!ok) return undefined;
    const overhead = flow.address && isIP(flow.address) === 6 ? 48 : 28;
    let released = false;
    return {
      read: async () => {
        const { at, counts } = await this.readAll();
        const count = counts.get(name);
        return count && { packets: count.packets, bytes: Math.max(0, count.bytes - count.packets * overhead), at };
      },
      release: async () => {
        if (released) return;
        released = true;
        await this.serial(async () => {
          const known = this.flows.get(name);
          if (!known || --known.refs > 0) return;
          this.flows.delete(name);
          this.chainFlows[flow.direction]--;
          if (this.flows.size === 0) {
            // The last flow: the table goes with it.
            this.tableExists = false;
            this.chainFlows.in = this.chainFlows.out = 0;
            this.session?.close();
            this.session = undefined;
            await run(nft, ['delete', 'table', 'inet', this.table]).catch(() => undefined);
            return;
          }
          const { map, key } = flowElement(flow);
          const chain = this.chainFlows[flow.direction] === 0 ? `delete chain inet ${this.table} ${CHAINS[flow.direction]}\n` : '';
          await run(nft, ['-f', '-'], `${chain}delete element inet ${this.table} ${map} { ${key} }\ndelete counter inet ${this.table} ${name}\n`).catch(() => undefined);
        });
      },
    };
  }

  /** Every counter of the table and when it was read, from one `nft` call shared by the callers of the same second (empty when it cannot be read). */
  private readAll(): Promise<{ at: number; counts: Map<string, { packets: number; bytes: number }> }> {
    const now = Date.now();
    if (this.reading && now - this.reading.at < READ_REUSE_MS) return this.reading.counts;
    const counts = (async () => {
      const map = new Map<string, { packets: number; bytes: number }>();
      const nft = await this.prepare();
      if (!nft || !this.tableExists) return { at: Date.now(), counts: map };
      this.session ??= new NftSession(nft);
      const json = JSON.parse(await this.session.request(`list counters table inet ${this.table}`)) as { nftables?: Array<{ counter?: { name: string; packets: number; bytes: number } }> };
      const at = Date.now();
      for (const entry of json.nftables ?? []) if (entry.counter) map.set(entry.counter.name, { packets: entry.counter.packets, bytes: entry.counter.bytes });
      return { at, counts: map };
    })().catch(() => ({ at: Date.now(), counts: new Map<string, { packets: number; bytes: number }>() }));
    this.reading = { at: now, counts };
    return counts;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The table and its maps from flows to counters; each direction's chain comes with its first flow (chainScript). */
  private tableScript(): string {
    const t = this.table;
    const lines = [`add table inet ${t}`];
    for (const direction of ['in', 'out'] as const) {
      lines.push(
        `add map inet ${t} ${direction}_port { type inet_service : counter; }`,
        `add map inet ${t} ${direction}_v4 { type ipv4_addr . inet_service : counter; }`,
        `add map inet ${t} ${direction}_v6 { type ipv6_addr . inet_service : counter; }`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /** nft's path; undefined when nft is missing or may not be used (tried once: the reaping of tables left behind). */
  private prepare(): Promise<string | undefined> {
    this.ready ??= (async () => {
      const nft = await findExecutable(this.options.nftPath ?? 'nft');
      if (!nft) return undefined;
      try {
        await reapLeftoverTables(nft);
      } catch {
        return undefined;
      }
      const table = this.table;
      process.once('exit', () => {
        if (this.tableExists) spawnSync(nft, ['delete', 'table', 'inet', table], { stdio: 'ignore', timeout: 5_000 });
      });
      return nft;
    })();
    return this.ready;
  }

  /** Stops counting every flow and deletes the table now (tests; otherwise it goes with its last flow). */
  async dispose(): Promise<void> {
    const nft = await this.ready;
    await this.serial(async () => {
      this.flows.clear();
      this.chainFlows.in = this.chainFlows.out = 0;
      this.session?.close();
      this.session = undefined;
      if (nft && this.tableExists) await run(nft, ['delete', 'table', 'inet', this.table]).catch(() => undefined);
      this.tableExists = false;
    });
  }
}

/** Tables of node processes that are gone (killed outright: their exit hook never ran). */
async function reapLeftoverTables(nft: string): Promise<void> {
  const json = JSON.parse(await run(nft, ['-j', 'list', 'tables'])) as { nftables?: Array<{ table?: { family: string; name: string } }> };
  for (const entry of json.nftables ?? []) {
    const table = entry.table;
    const pid = table?.family === 'inet' && table.name.startsWith(TABLE_PREFIX) ? Number(table.name.slice(TABLE_PREFIX.length)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) await run(nft, ['delete', 'table', 'inet', table!.name]).catch(() => undefined);
  }
}

let shared: KernelUdpCounters | undefined;
/** The node process's counters. */
export function kernelUdpCounters(): KernelUdpCounters {
  shared ??= new KernelUdpCounters();
  return shared;
}
