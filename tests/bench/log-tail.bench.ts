/**
 * How long "last 1000 lines" takes on a 1 GiB job log.
 *   npx tsx tests/bench/log-tail.bench.ts
 * Writes the log once to the OS temp dir (reused when present), then reads the last 1000 lines
 * 20 times (after one warm-up read) and prints median and p95 in a one-line table. Target: < 50 ms.
 * The engine benchmark (tests/bench/engine.bench.ts) calls measureLogTail() as a module.
 */
import { createWriteStream, existsSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { formatLogLine } from '../../engine/logs/log-format.ts';
import { readLogLines } from '../../engine/logs/log-reader.ts';
import type { LogLine } from '../../engine/types.ts';

const SIZE_BYTES = 1024 ** 3;
const RUNS = 20;
const LINES = 1000;
const TARGET_MS = 50;
const file = path.join(tmpdir(), 'mediaplane-log-tail-bench-1GiB.log');

/** Lines as a busy transcoder writes them: mostly info, some warnings and errors, our own lines. */
const TEMPLATES: ((i: number) => Omit<LogLine, 'time'>)[] = [
  (i) => ({ level: 'INFO', source: 'ffmpeg', text: `frame=${i} fps=25 q=23.0 size=${i * 17}kB time=00:${String(Math.floor(i / 1500) % 60).padStart(2, '0')}:${String(Math.floor(i / 25) % 60).padStart(2, '0')}.00 bitrate=4012.3kbits/s speed=1.00x` }),
  () => ({ level: 'INFO', source: 'ffmpeg', text: '[libx264 @ 0x55fcfe020380] profile High, level 4.0, 4:2:0, 8-bit' }),
  (i) => ({ level: 'WARNING', source: 'ffmpeg', text: `[mpegts @ 0x55f0a56328c0] Packet corrupt (stream = 0, dts = ${128090 + i * 3600}).` }),
  () => ({ level: 'WARNING', source: 'ffmpeg', text: '[udp @ 0x557c34d931c0] Circular buffer overrun. Surviving due to overrun_nonfatal option' }),
  () => ({ level: 'ERROR', source: 'ffmpeg', text: '[h264 @ 0x556733401e00] non-existing PPS 0 referenced' }),
  () => ({ level: 'VERBOSE', source: 'ffmpeg', text: '[graph 0 input from stream 0:0 @ 0x55fcfe0262c0] w:1920 h:1080 pixfmt:yuv420p tb:1/90000 fr:25/1 sar:1/1' }),
  (i) => ({ level: 'NOTICE', source: 'supervisor', text: `started pid ${1000 + (i % 30000)}: ffmpeg -hide_banner -nostdin -i udp://239.1.1.${i % 250}:1234` }),
  () => ({ level: 'INFO', source: 'ffmpeg', text: '  Stream #0:0[0x100]: Video: h264 (High) ([27][0][0][0] / 0x001B), yuv420p(tv, bt709, top first), 1920x1080 [SAR 1:1 DAR 16:9], 25 fps, 50 tbr, 90k tbn' }),
];
const WEIGHTS = [0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 0, 0, 0]; // frame lines dominate

async function writeLog(): Promise<void> {
  const partial = `${file}.writing`;
  const out = createWriteStream(partial);
  let written = 0;
  let i = 0;
  let time = Date.now() - 86_400_000;
  const started = performance.now();
  while (written < SIZE_BYTES) {
    let chunk = '';
    while (chunk.length < 4 * 1024 * 1024) {
      const template = TEMPLATES[WEIGHTS[i % WEIGHTS.length]];
      chunk += formatLogLine({ time, ...template(i) });
      time += 7;
      i++;
    }
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  renameSync(partial, file);
  console.error(`wrote ${i} lines (${(written / 1024 ** 3).toFixed(2)} GiB) to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export interface LogTailFigures {
  sizeGiB: string;
  lines: number;
  runs: number;
  medianMs: number;
  p95Ms: number;
  targetMs: number;
  file: string;
}

/** Reads the last 1000 lines of the 1 GiB log (written first when absent) 20 times; median and p95. */
export async function measureLogTail(): Promise<LogTailFigures> {
  if (!existsSync(file) || statSync(file).size < SIZE_BYTES) await writeLog();

  const query = { lines: LINES, direction: 'backward' as const };
  const warm = await readLogLines(file, query);
  if (warm.lines.length !== LINES) throw new Error(`expected ${LINES} lines, got ${warm.lines.length}`);
  const timings: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await readLogLines(file, query);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const median = (timings[RUNS / 2 - 1] + timings[RUNS / 2]) / 2;
  const p95 = timings[Math.ceil(RUNS * 0.95) - 1];
  const sizeGiB = (statSync(file).size / 1024 ** 3).toFixed(2);
  return { sizeGiB, lines: LINES, runs: RUNS, medianMs: median, p95Ms: p95, targetMs: TARGET_MS, file };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { sizeGiB, medianMs: median, p95Ms: p95 } = await measureLogTail();
  console.log('| log size | query | runs | median ms | p95 ms | target ms | result |');
  console.log(`| ${sizeGiB} GiB | last ${LINES} lines, backward | ${RUNS} | ${median.toFixed(2)} | ${p95.toFixed(2)} | < ${TARGET_MS} | ${p95 < TARGET_MS ? 'PASS' : 'FAIL'} |`);
  if (p95 >= TARGET_MS) process.exitCode = 1;
}
