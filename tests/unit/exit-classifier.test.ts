import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyExit, inputsOfArgs } from '../../engine/supervisor/exit-classifier.ts';

/** Real ffmpeg 5.1 stderr, recorded by tests/fixtures/ffmpeg-stderr/capture.ts against local peers. */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/ffmpeg-stderr');
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as Record<
  string,
  { argv: string[]; code: number | null; signal: string | null; expected: string }
>;
const lines = (name: string) => readFileSync(path.join(dir, `${name}.txt`), 'utf8').split('\n').filter(Boolean);

describe('classifyExit on real ffmpeg 5.1 stderr', () => {
  for (const [name, c] of Object.entries(index)) {
    it(`names ${name} ${c.expected}`, () => {
      const result = classifyExit({ code: c.code, signal: c.signal, lastLines: lines(name), stopRequested: false, hang: false, inputs: inputsOfArgs(c.argv) });
      expect(result.reason).toBe(c.expected);
      expect(result.detail).not.toBe('');
    });
    it(`names ${name} ${c.expected} without being told the inputs`, () => {
      const result = classifyExit({ code: c.code, signal: c.signal, lastLines: lines(name), stopRequested: false, hang: false });
      expect(result.reason).toBe(c.expected);
    });
  }

  it('gives the line that tells the cause as the detail', () => {
    const c = index['input-tcp-connection-refused'];
    const result = classifyExit({ code: c.code, signal: null, lastLines: lines('input-tcp-connection-refused'), stopRequested: false, hang: false, inputs: inputsOfArgs(c.argv) });
    expect(result.detail).toBe('tcp://127.0.0.1:CLOSED_PORT: Connection refused');
    const http = classifyExit({ code: 1, signal: null, lastLines: lines('input-http-401'), stopRequested: false, hang: false });
    expect(http.detail).toBe('http://127.0.0.1:HTTP_PORT/status/401/live.ts: Server returned 401 Unauthorized (authorization failed)');
  });

  it('tells an output refused from an input refused by which side ffmpeg names', () => {
    const input = classifyExit({ code: 1, signal: null, lastLines: ['[error] tcp://10.0.0.5:9000: Connection refused'], stopRequested: false, hang: false, inputs: ['tcp://10.0.0.5:9000'] });
    const output = classifyExit({ code: 1, signal: null, lastLines: ['[error] tcp://10.0.0.5:9000: Connection refused'], stopRequested: false, hang: false, inputs: ['udp://0.0.0.0:5000'] });
    expect(input.reason).toBe('connection_refused');
    expect(output.reason).toBe('output_refused');
  });

  it('puts a component line (a failed name lookup) on the side ffmpeg finally names', () => {
    const lastLines = [
      "[info] Input #0, lavfi, from 'testsrc=size=160x90:rate=25':",
      '[tcp @ 0x55c5c19dbf80] [error] Failed to resolve hostname nowhere.invalid: Name or service not known',
      '[error] rtmp://nowhere.invalid/live/stream: Input/output error',
    ];
    const result = classifyExit({ code: 1, signal: null, lastLines, stopRequested: false, hang: false });
    expect(result).toEqual({ reason: 'output_refused', detail: 'tcp: Failed to resolve hostname nowhere.invalid: Name or service not known' });
  });
});

describe('classifyExit on exits the supervisor knows about', () => {
  const base = { code: null, signal: null, lastLines: [], stopRequested: false, hang: false };

  it('names our own stop stopped, whatever the code or signal', () => {
    expect(classifyExit({ ...base, code: 255, lastLines: ['[info] Exiting normally, received signal 2.'], stopRequested: true }).reason).toBe('stopped');
    expect(classifyExit({ ...base, signal: 'SIGKILL', stopRequested: true }).reason).toBe('stopped');
  });

  it('names a kill for lack of progress hang', () => {
    expect(classifyExit({ ...base, signal: 'SIGKILL', hang: true }).reason).toBe('hang');
  });

  it('names a SIGKILL that was not ours killed', () => {
    const result = classifyExit({ ...base, signal: 'SIGKILL', lastLines: ['[info] frame=  100 fps= 25'] });
    expect(result).toEqual({ reason: 'killed', detail: 'killed by SIGKILL, not by the supervisor' });
  });

  it('names a SIGTERM from someone else killed, from the signal or from ffmpeg saying so', () => {
    expect(classifyExit({ ...base, signal: 'SIGTERM' }).reason).toBe('killed');
    expect(classifyExit({ ...base, code: 255, lastLines: lines('terminated-by-sigterm') }).detail).toBe('Exiting normally, received signal 15.');
  });

  it('names code 137 and "Cannot allocate memory" out_of_memory', () => {
    expect(classifyExit({ ...base, code: 137 }).reason).toBe('out_of_memory');
    expect(classifyExit({ ...base, code: 1, lastLines: ['[libx264 @ 0x55d0] [error] malloc of size 4096 failed', '[error] Error while filtering: Cannot allocate memory'] }).reason).toBe('out_of_memory');
  });

  it('names a segmentation fault crashed', () => {
    expect(classifyExit({ ...base, signal: 'SIGSEGV' })).toEqual({ reason: 'crashed', detail: 'crashed with SIGSEGV' });
  });

  it('names a program that could not be spawned spawn_failed', () => {
    expect(classifyExit({ ...base, spawnError: 'spawn /usr/bin/nothing ENOENT' })).toEqual({ reason: 'spawn_failed', detail: 'spawn /usr/bin/nothing ENOENT' });
  });

  it('names an unexplained failure crashed with the last error line', () => {
    const result = classifyExit({ ...base, code: 1, lastLines: ['[info] Stream mapping:', '[error] Something nobody has seen before', '[info] Conversion failed!'] });
    expect(result).toEqual({ reason: 'crashed', detail: 'Something nobody has seen before (code 1)' });
  });

  it('does not mistake a warning for the cause when an error line names it', () => {
    const result = classifyExit({
      ...base,
      code: 1,
      lastLines: ['[hls @ 0x55] [warning] HTTP error 404 Not Found', '[error] udp://127.0.0.1:9: Connection refused'],
      inputs: ['udp://127.0.0.1:9'],
    });
    expect(result.reason).toBe('connection_refused');
  });
});
