import { spawn } from 'node:child_process';
import { findExecutable } from '../srt/srt-bridge.ts';
import { ownedProcessEnv, reapOrphans, type OrphanKind } from '../orphans.ts';
import { signalGroup, trackGroup, untrackGroup } from '../supervisor/process-group.ts';
import type { InputSpec } from '../types.ts';

/**
 * "Does this input deliver media now?": the check of a failover job's primary while the job runs
 * from its failover input (engine/failover.ts decides when to ask).
 *
 * A probe never outlives its bound, whatever happens to the node process:
 * - it reads with a timeout of its own on every protocol (`timeout` in a UDP/RTP/SRT URL,
 *   `-rw_timeout` for TCP, RTMP and HTTP, `-timeout` for RTSP), so a silent source ends it;
 * - it runs under coreutils' `timeout`, which SIGKILLs it at the limit even if the node process
 *   that started it was killed outright (no timer of ours is left to do it);
 * - it runs in a process group of its own, killed with the group at the limit, and when the node
 *   process exits;
 * - it carries the job's marks in its environment (engine/orphans.ts), so the next node process
 *   ends any probe left by one that was killed outright (`reapLeftoverProbes`).
 */

export const PROBE_ENV = 'MEDIAPLANE_INPUT_PROBE';
export const PROBE_OWNER_ENV = 'MEDIAPLANE_INPUT_PROBE_OWNER';
/** How probes are marked (engine/orphans.ts). */
export const INPUT_PROBES: OrphanKind = { marker: PROBE_ENV, ownerVar: PROBE_OWNER_ENV };

/** What the probe opens for an input: its URL (with the access token), or a file through ffmpeg's file protocol. */
export function probeTarget(input: InputSpec): { kind: 'url'; url: string } | { kind: 'args'; args: string[] } {
  switch (input.type) {
    case 'uri': {
      if (input.uri.startsWith('/')) return { kind: 'url', url: `file:${input.uri}` };
      if (input.token && /^(https?|rtmps?|rtsps?):/i.test(input.uri)) {
        const url = new URL(input.uri);
        url.searchParams.set('token', input.token);
        return { kind: 'url', url: url.toString() };
      }
      return { kind: 'url', url: input.uri };
    }
    case 'storage':
      return { kind: 'url', url: `file:${input.path}` };
    case 'args':
      return { kind: 'args', args: input.args };
  }
}

function withQuery(url: string, key: string, value: string): string {
  if (new RegExp(`[?&]${key}=`).test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${key}=${value}`;
}

/**
 * The probe's own read timeout for a URL: the URL (UDP, RTP, SRT take it as a query option) and the
 * options to put before it. An SRT listener gets none (it waits for its caller; the bound ends it).
 */
export function boundedRead(url: string, readTimeoutMs: number): { url: string; options: string[] } {
  const us = String(Math.max(1, Math.round(readTimeoutMs * 1000)));
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1].toLowerCase();
  switch (scheme) {
    case 'udp':
    case 'rtp':
      return { url: withQuery(url, 'timeout', us), options: [] };
    case 'srt':
      return { url: /[?&]mode=listener(&|$)/.test(url) ? url : withQuery(url, 'timeout', us), options: [] };
    case 'tcp':
    case 'rtmp':
    case 'rtmps':
    case 'http':
    case 'https':
      return { url, options: ['-rw_timeout', us] };
    case 'rtsp':
    case 'rtsps':
      return { url, options: ['-timeout', us] };
    default:
      return { url, options: [] };
  }
}

export interface ProbeOptions {
  ffprobePath?: string;
  ffmpegPath?: string;
  /** The probe is killed after this long and counts as failed (default 5 s). */
  timeoutMs?: number;
  /** The job the probe is for (its mark, see engine/orphans.ts). */
  jobId?: string;
}

/** The program and argv of a probe (wrapped in coreutils' `timeout` when `timeoutProgram` is given). */
export function probeCommand(input: InputSpec, options: ProbeOptions & { timeoutProgram?: string }): { file: string; args: string[] } {
  const target = probeTarget(input);
  const timeoutMs = options.timeoutMs ?? 5_000;
  let file: string;
  let args: string[];
  if (target.kind === 'url') {
    // Reads give up well before the bound, so a silent source is a clean failure, not a kill.
    const read = boundedRead(target.url, Math.max(500, timeoutMs * 0.8));
    file = options.ffprobePath ?? 'ffprobe';
    args = ['-v', 'error', ...read.options, '-analyzeduration', '2000000', '-probesize', '2000000', '-show_entries', 'stream=codec_type', '-of', 'json', read.url];
  } else {
    file = options.ffmpegPath ?? 'ffmpeg';
    args = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', ...target.args, '-t', '1', '-f', 'null', '-'];
  }
  if (!options.timeoutProgram) return { file, args };
  const seconds = String(Math.ceil(timeoutMs / 1000) + 1);
  return { file: options.timeoutProgram, args: ['-s', 'KILL', seconds, file, ...args] };
}

let timeoutProgram: Promise<string | undefined> | undefined;
/** How long an answer waits at most for a killed probe to be reaped. */
const REAP_BOUND_MS = 250;

/**
 * Does the input deliver media now? A URL or file is asked with ffprobe for its streams; an input
 * given as ffmpeg arguments (playlist, dvb, dev) is read by ffmpeg for one second. No shell; see
 * the top of this file for how the probe is bounded.
 */
export async function probeInput(input: InputSpec, options: ProbeOptions = {}): Promise<boolean> {
  timeoutProgram ??= findExecutable('timeout');
  const command = probeCommand(input, { ...options, timeoutProgram: await timeoutProgram });
  const target = probeTarget(input);
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const child = spawn(command.file, command.args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      shell: false,
      detached: true,
      env: { ...process.env, ...ownedProcessEnv(PROBE_ENV, PROBE_OWNER_ENV, options.jobId ?? '') },
    });
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    let timedOut = false;
    let reapBound: NodeJS.Timeout | undefined;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(reapBound);
      resolve(ok);
    };
    // At the limit the group is killed and the answer waits for the probe to be gone (its 'close'),
    // so a caller never sees a probe still running after the answer; one that cannot be reaped at
    // once does not hold the answer back past REAP_BOUND_MS.
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) signalGroup(pid, 'SIGKILL');
      reapBound = setTimeout(() => done(false), REAP_BOUND_MS);
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.once('error', () => done(false));
    child.once('close', (code) => {
      if (pid !== undefined) {
        // Nothing the probe started outlives it.
        signalGroup(pid, 'SIGKILL');
        untrackGroup(pid);
      }
      if (timedOut || code !== 0) return done(false);
      if (target.kind === 'args') return done(true);
      try {
        const streams = (JSON.parse(stdout) as { streams?: Array<{ codec_type?: string }> }).streams ?? [];
        done(streams.some((s) => s.codec_type === 'video' || s.codec_type === 'audio'));
      } catch {
        done(false);
      }
    });
  });
}

/** Ends probes left by a node process that was killed outright (all jobs', or one job's). */
export function reapLeftoverProbes(jobId?: string): Promise<number[]> {
  return reapOrphans(PROBE_ENV, PROBE_OWNER_ENV, jobId);
}
