import { execFile } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import { findExecutable } from '../srt/srt-bridge.ts';

/**
 * Bytes of a process's TCP connections as the kernel counts them (`tcp_info`: bytes received, bytes
 * sent and acknowledged), read with ONE `ss` call for the whole machine, shared by every job sampled
 * within a second; a process's sockets are told apart by the inodes in /proc/<pid>/fd. This is how
 * TCP, RTMP and HTTP(S) inputs, and TCP and RTMP outputs beside others, get their bitrates: ffmpeg
 * 5.1 reports neither. Without `ss` (iproute2) they are "not measured".
 */
export interface TcpSocket {
  inode: number;
  localAddress: string;
  localPort: number;
  peerAddress: string;
  peerPort: number;
  /** Payload bytes received. */
  bytesReceived: number;
  /** Payload bytes sent and acknowledged by the peer. */
  bytesAcked: number;
}

const READ_REUSE_MS = 1_000;
let ssPath: Promise<string | undefined> | undefined;
let reading: { at: number; sockets: Promise<{ at: number; sockets: Map<number, TcpSocket> } | undefined> } | undefined;

function splitEndpoint(text: string): { address: string; port: number } | undefined {
  const at = text.lastIndexOf(':');
  if (at <= 0) return undefined;
  let address = text.slice(0, at);
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  address = address.replace(/^::ffff:/i, '').replace(/%.*$/, '');
  const port = Number(text.slice(at + 1));
  return Number.isInteger(port) ? { address, port } : undefined;
}

/** Parses `ss -tinHe state established`: a line per socket, then a line of its tcp_info (indented). */
export function parseSs(output: string): Map<number, TcpSocket> {
  const sockets = new Map<number, TcpSocket>();
  let current: TcpSocket | undefined;
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) {
      if (!current) continue;
      current.bytesReceived = Number(/\bbytes_received:(\d+)/.exec(line)?.[1] ?? 0);
      current.bytesAcked = Number(/\bbytes_acked:(\d+)/.exec(line)?.[1] ?? 0);
      continue;
    }
    current = undefined;
    const fields = line.trim().split(/\s+/);
    const inode = Number(/\bino:(\d+)/.exec(line)?.[1]);
    const local = splitEndpoint(fields[2] ?? '');
    const peer = splitEndpoint(fields[3] ?? '');
    if (!inode || !local || !peer) continue;
    current = { inode, localAddress: local.address, localPort: local.port, peerAddress: peer.address, peerPort: peer.port, bytesReceived: 0, bytesAcked: 0 };
    sockets.set(inode, current);
  }
  return sockets;
}

/** Every established TCP socket of the machine by inode, and when `ss` gave them (a reading serves the callers of a second); undefined when `ss` is not there. */
export function tcpSockets(): Promise<{ at: number; sockets: Map<number, TcpSocket> } | undefined> {
  const now = Date.now();
  if (reading && now - reading.at < READ_REUSE_MS) return reading.sockets;
  ssPath ??= findExecutable('ss');
  const sockets = (async () => {
    const ss = await ssPath;
    if (!ss) return undefined;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(ss, ['-tinHe', 'state', 'established'], { timeout: 10_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(String(stdout)))),
    );
    return { at: Date.now(), sockets: parseSs(output) };
  })().catch(() => undefined);
  reading = { at: now, sockets };
  return sockets;
}

/** The socket inodes a process holds. */
export async function socketInodes(pid: number): Promise<Set<number>> {
  const inodes = new Set<number>();
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  await Promise.all(
    fds.map(async (fd) => {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m) inodes.add(Number(m[1]));
    }),
  );
  return inodes;
}

/**
 * A byte count over the TCP connections of a process that `select` picks, kept across
 * connections that come and go (a reconnect, an HTTP request per HLS segment): what a closed
 * connection had counted stays in the total.
 */
export class TcpBytes {
  private readonly last = new Map<number, number>();
  private closed = 0;

  constructor(
    private readonly direction: 'received' | 'sent',
    private readonly select: (socket: TcpSocket) => boolean = () => true,
  ) {}

  /** The count for the process and when the kernel gave it; undefined when it cannot be read (no `ss`). */
  async read(pid: number): Promise<{ bytes: number; at: number } | undefined> {
    const [reading, inodes] = await Promise.all([tcpSockets(), socketInodes(pid)]);
    if (!reading) return undefined;
    const { sockets } = reading;
    const seen = new Set<number>();
    let open = 0;
    for (const inode of inodes) {
      const socket = sockets.get(inode);
      if (!socket || !this.select(socket)) continue;
      const bytes = this.direction === 'received' ? socket.bytesReceived : socket.bytesAcked;
      seen.add(inode);
      this.last.set(inode, bytes);
      open += bytes;
    }
    for (const [inode, bytes] of this.last) {
      if (seen.has(inode)) continue;
      this.closed += bytes;
      this.last.delete(inode);
    }
    return { bytes: this.closed + open, at: reading.at };
  }
}
