import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mtrErrorText, MtrTable } from '../../engine/tools/mtr-parser.ts';
import { buildMtrArgs } from '../../engine/tools/mtr.ts';

/** Output recorded from mtr 0.95 (`LC_ALL=C mtr --raw -c N [-n] -- host`). */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tool-output');
const lines = (name: string) => readFileSync(path.join(fixtures, name), 'utf8').split('\n').filter(Boolean);

function replay(name: string): MtrTable {
  const table = new MtrTable();
  for (const line of lines(name)) table.add(line);
  return table;
}

describe('mtr raw output', () => {
  it('builds the one-hop route to 127.0.0.1 with its DNS name and timings', () => {
    const rows = replay('mtr-localhost.txt').rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({ hop: 1, host: 'localhost', address: '127.0.0.1', lossPercent: 0, sent: 2, received: 2, lastMs: 0.1, avgMs: 0.1, bestMs: 0, worstMs: 0.1, stdevMs: 0 });
  });

  it('ends the route at the destination, though mtr probed past it', () => {
    const table = replay('mtr-remote.txt');
    const rows = table.rows();
    // The gateway, then the address that answered every probe that got far enough.
    expect(rows.map((r) => r.address)).toEqual(['192.0.2.1', '21.4.0.217']);
    expect(rows.map((r) => r.hop)).toEqual([1, 2]);
    expect(rows[0].sent).toBe(3);
    expect(rows[0].received).toBe(3);
    expect(rows[0].lossPercent).toBe(0);
    for (const row of rows) {
      expect(row.bestMs).toBeLessThanOrEqual(row.avgMs as number);
      expect(row.avgMs).toBeLessThanOrEqual(row.worstMs as number);
    }
  });

  it('reports a hop as it fills: sent before any answer is 100% loss and no host ("???")', () => {
    const table = new MtrTable();
    expect(table.add('x 0 33000')).toBe(true);
    expect(table.rows()).toEqual([{ hop: 1, host: null, address: null, lossPercent: 100, sent: 1, received: 0, lastMs: null, avgMs: null, bestMs: null, worstMs: null, stdevMs: null }]);
    table.add('h 0 10.0.0.1');
    table.add('p 0 1500 33000');
    table.add('x 0 33001');
    table.add('p 0 2500 33001');
    expect(table.rows()[0]).toMatchObject({ host: '10.0.0.1', sent: 2, received: 2, lossPercent: 0, lastMs: 2.5, avgMs: 2, bestMs: 1.5, worstMs: 2.5, stdevMs: 0.5 });
  });

  it('ignores lines it does not know', () => {
    const table = new MtrTable();
    expect(table.add('')).toBe(false);
    expect(table.add('mtr: something')).toBe(false);
    expect(table.add('x notanumber 1')).toBe(false);
    expect(table.rows()).toEqual([]);
  });

  it('shows mtr\'s own error without the program name', () => {
    expect(mtrErrorText('mtr: Failed to resolve host: no.such.invalid: Name or service not known')).toBe('Failed to resolve host: no.such.invalid: Name or service not known');
  });
});

describe('mtr arguments', () => {
  it('puts the host alone after --, with -n for noDns', () => {
    expect(buildMtrArgs('example.com', 30, false)).toEqual(['--raw', '-c', '30', '--', 'example.com']);
    expect(buildMtrArgs('127.0.0.1', 5, true)).toEqual(['--raw', '-c', '5', '-n', '--', '127.0.0.1']);
    expect(() => buildMtrArgs('--report', 5, true)).toThrow(/not a plain argument/);
  });
});
