import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AbrProfileSpec, JobSpec } from '../../../engine/types.ts';
import type { BenchContext, Measurement } from './context.ts';
import { verdict, type MeasurementResult } from './report.ts';
import { productCommand } from './support/control-plane.ts';
import { CONTRIBUTION_SOURCE, ensureSourceFile } from './support/media.ts';
import { sampleGroups, spawnFfmpeg, type ChildProcessHandle } from './support/processes.ts';

/**
 * 5. ABR in one process against one process per profile: the product's 3-profile ladder (one
 * decode, split, three x264 encodes) against three separate processes, each encoding one profile
 * from the same source, all argv from buildFfmpegArgs. Each process runs as fast as it can (no -re)
 * on the source looped; its CPU (process group, /proc) is read while it runs, at the progress
 * blocks where its output passes the warm-up point and warm-up + N media seconds.
 *
 * Two sources: a 1080p25 contribution feed, as a headend's ladder gets it (the judged row), and
 * the 720p25 relay source, whose resolution is the top rung's (no scaling there to share).
 */

const PROFILES: AbrProfileSpec[] = [
  { width: 1280, height: 720, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
  { width: 854, height: 480, videoBitrateKbps: 1500, audioBitrateKbps: 96 },
  { width: 640, height: 360, videoBitrateKbps: 800, audioBitrateKbps: 64 },
];
const WARMUP_MS = 2_000;

function abrSpec(id: string, source: string, dir: string, profiles: AbrProfileSpec[]): JobSpec {
  const single = profiles.length === 1 ? profiles[0] : undefined;
  return {
    id,
    name: id,
    videoType: 'LIVE',
    // The source file, looped: a live source that never ends, read as fast as the encoders go.
    input: { type: 'args', source: 'dev', args: ['-stream_loop', '-1', '-i', source] },
    outputs: [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 6, containerType: 'TS', listSize: 6 }],
    encoding: {
      video: { codec: 'libx264', bitrateKbps: single?.videoBitrateKbps ?? 3000, width: single?.width, height: single?.height, params: { preset: 'veryfast' } },
      profiles: single ? undefined : profiles,
      audio: { disabled: true, tracks: [] },
    },
    noSound: true,
    restartAttempts: 0,
    staleTimeoutSeconds: 30,
    logLevel: 'WARNING',
    logMaxSizeInMegaBytes: 1,
  };
}

/** CPU seconds the process group spends on `seconds` of output media, after the warm-up. */
function measureEncode(child: ChildProcessHandle, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let start: { cpu: number; outMs: number } | undefined;
    let busy = false;
    child.exit.then(() => reject(new Error(`ffmpeg ${child.pid} ended before ${seconds} s of output:\n${child.stderrTail().slice(-1500)}`)));
    child.onProgress((progress) => {
      const outMs = progress.outTimeMs;
      if (outMs === undefined || busy) return;
      const due = start ? start.outMs + seconds * 1000 : WARMUP_MS;
      if (outMs < due) return;
      busy = true;
      void sampleGroups([child.pid]).then((groups) => {
        busy = false;
        const cpu = groups.get(child.pid)!.cpuSeconds;
        if (!start) start = { cpu, outMs };
        // Per media second over what was really encoded between the two readings, times N.
        else resolve(((cpu - start.cpu) / ((outMs - start.outMs) / 1000)) * seconds);
      }, reject);
    });
  });
}

async function runSide(specs: JobSpec[], seconds: number): Promise<number[]> {
  const commands = specs.map((spec) => productCommand(spec));
  // As the runner does: the output directories first.
  for (const command of commands) for (const dir of command.directories) mkdirSync(dir, { recursive: true });
  const children = commands.map((command) => spawnFfmpeg(command.args));
  try {
    return await Promise.all(children.map((child) => measureEncode(child, seconds)));
  } finally {
    await Promise.all(children.map((child) => child.kill()));
  }
}

/** CPU seconds of the ladder in one process and of each profile in a process of its own. */
async function compare(ctx: BenchContext, source: string, dir: string, label: string): Promise<{ ladder: number; separate: number[] }> {
  const seconds = ctx.options.abrSeconds;
  ctx.log(`abr (${label}): one process with 3 profiles, ${seconds} s of media`);
  const [ladder] = await runSide([abrSpec('abr-ladder', source, path.join(dir, 'ladder'), PROFILES)], seconds);
  ctx.log(`abr (${label}): three processes, one profile each, ${seconds} s of media each`);
  const separate = await runSide(
    PROFILES.map((p, i) => abrSpec(`abr-${p.height}p`, source, path.join(dir, `single-${i}`), [p])),
    seconds,
  );
  return { ladder, separate };
}

export const abrLadder: Measurement = {
  name: 'abr',
  title: 'ABR ladder in one process',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const seconds = ctx.options.abrSeconds;
    const contribution = await ensureSourceFile(30, ctx.log, CONTRIBUTION_SOURCE);
    const relaySource = await ctx.source();
    const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-engine-bench-abr-'));
    try {
      const row = (source: string, result: { ladder: number; separate: number[] }, judged: boolean) => {
        const sum = result.separate.reduce((a, b) => a + b, 0);
        const ratio = result.ladder / sum;
        return {
          measurement: `ABR 720p/480p/360p, x264 veryfast, ${seconds} s of ${source}: CPU of one process ÷ three processes (one profile each)`,
          mediaplane: `${result.ladder.toFixed(1)} CPU-s in one process (ratio ${ratio.toFixed(2)})`,
          bare: `${sum.toFixed(1)} CPU-s in three (${result.separate.map((s) => s.toFixed(1)).join(' + ')})`,
          target: judged ? 'ratio ≤ 0.8' : '—',
          result: judged ? verdict(ratio <= 0.8) : ('info' as const),
        };
      };
      const fromContribution = await compare(ctx, contribution, path.join(dir, '1080p'), '1080p25 source');
      const fromRelaySource = await compare(ctx, relaySource, path.join(dir, '720p'), '720p25 source');
      return {
        rows: [row('a 1080p25 6 Mbit/s contribution feed', fromContribution, true), row('720p25 (the top rung\'s own resolution)', fromRelaySource, false)],
        notes: [
          `ABR: argv from buildFfmpegArgs for an encoding with \`encoding.profiles\` (3 profiles: 1280×720 3000k, 854×480 1500k, 640×360 800k; x264 preset veryfast; audio off; HLS output; each profile scaled from the next larger one) against three encodings of one profile each, run at the same time; every process decodes the source, looped. Each process runs as fast as it can; its CPU (all threads, /proc) is read at the progress blocks where its output passes ${WARMUP_MS / 1000} s and ${WARMUP_MS / 1000 + seconds} s of media, and scaled to exactly ${seconds} s.`,
          'The judged source is a 1080p25 H.264 contribution feed at 6 Mbit/s (CBR, a keyframe every second), what a headend\'s ladder is fed: the one process decodes and scales it to the top rung once where three processes do it three times. The second row feeds the 720p25 relay source: its top rung needs no scaling and one decode of it is under a tenth of one profile\'s process, so sharing it saves two decodes, some 15 % of the three; that row is information.',
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
