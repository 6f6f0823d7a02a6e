import { execa } from 'execa';
import { measureLogTail } from '../log-tail.bench.ts';
import type { BenchContext, Measurement } from './context.ts';
import { verdict, type MeasurementResult } from './report.ts';
import { median } from './support/processes.ts';

/**
 * 6. The last 1000 lines of a 1 GiB job log: the log-tail benchmark (tests/bench/log-tail.bench.ts)
 * run as a module, next to coreutils `tail -n 1000` on the same file as the bare reference.
 */
export const logTail: Measurement = {
  name: 'log-tail',
  title: 'Last 1000 lines of a 1 GiB log',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    ctx.log('log-tail: last 1000 lines of a 1 GiB log (written once to the temp dir when absent)');
    const figures = await measureLogTail();
    const tail: number[] = [];
    for (let i = 0; i < figures.runs; i++) {
      const started = performance.now();
      await execa('tail', ['-n', String(figures.lines), figures.file], { stdout: 'ignore' });
      tail.push(performance.now() - started);
    }
    return {
      rows: [
        {
          measurement: `Last ${figures.lines} lines of a ${figures.sizeGiB} GiB job log (${figures.runs} reads)`,
          mediaplane: `median ${figures.medianMs.toFixed(1)} ms, p95 ${figures.p95Ms.toFixed(1)} ms`,
          bare: `\`tail -n ${figures.lines}\`: median ${median(tail).toFixed(1)} ms (process included)`,
          target: `p95 < ${figures.targetMs} ms`,
          result: verdict(figures.p95Ms < figures.targetMs),
        },
      ],
      notes: [
        'Log tail: readLogLines (engine/logs) reading backwards from the end of the file, measured by tests/bench/log-tail.bench.ts (one warm-up read, then 20; judged on p95 as that benchmark does); the file is in the page cache after the first read, as a job log being followed is.',
      ],
    };
  },
};
