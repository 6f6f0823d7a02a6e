import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** One line of the results table. */
export interface Row {
  measurement: string;
  mediaplane: string;
  bare: string;
  target: string;
  /** PASS / MISSED against the target; `info` for a figure without one; `NOT MEASURED` when the measurement failed. */
  result: 'PASS' | 'MISSED' | 'info' | 'NOT MEASURED';
}

export interface MeasurementResult {
  rows: Row[];
  /** What a reader needs to read the figures right (method, what dominates, caveats). */
  notes: string[];
}

export const verdict = (ok: boolean): Row['result'] => (ok ? 'PASS' : 'MISSED');

export const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
export const pct = (value: number, digits = 2) => (Number.isFinite(value) ? `${value.toFixed(digits)} %` : 'n/a');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownTable(rows: Row[]): string {
  const lines = [
    '| Measurement | Mediaplane | Bare (ffmpeg with the same argv, same run) | Target | Result |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${cell(r.measurement)} | ${cell(r.mediaplane)} | ${cell(r.bare)} | ${cell(r.target)} | ${r.result === 'MISSED' ? '**MISSED**' : r.result} |`),
  ];
  return lines.join('\n');
}

function firstMatch(file: string, pattern: RegExp): string | undefined {
  try {
    return pattern.exec(readFileSync(file, 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

export interface Machine {
  cores: number;
  cpuModel: string;
  memory: string;
  ffmpeg: string;
  node: string;
}

export function describeMachine(): Machine {
  let cores = availableParallelism();
  try {
    cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || cores;
  } catch {
    // nproc missing: Node's figure
  }
  const memKb = Number(firstMatch('/proc/meminfo', /^MemTotal:\s+(\d+)/m) ?? 0);
  let ffmpeg = 'unknown';
  try {
    ffmpeg = execFileSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' }).split('\n')[0].replace(/ Copyright.*$/, '');
  } catch {
    // reported as unknown
  }
  return {
    cores,
    cpuModel: firstMatch('/proc/cpuinfo', /^model name\s*:\s*(.+)$/m) ?? 'unknown',
    memory: `${(memKb / 1024 / 1024).toFixed(1)} GiB`,
    ffmpeg,
    node: process.version,
  };
}

export function markdownReport(options: { machine: Machine; date: Date; command: string; rows: Row[]; notes: string[] }): string {
  const { machine, date, command, rows, notes } = options;
  return [
    '# Engine benchmark',
    '',
    `Measured ${date.toISOString().replace(/\.\d{3}Z$/, 'Z')} with \`${command}\`.`,
    '',
    `Machine: ${machine.cores} cores (\`nproc\`), ${machine.cpuModel}, ${machine.memory} memory; ${machine.ffmpeg}; Node.js ${machine.node}.`,
    '',
    markdownTable(rows),
    '',
    ...(notes.length ? ['Notes:', '', ...notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}
