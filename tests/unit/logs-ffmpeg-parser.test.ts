import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ffmpegLogLevelFor, parseFfmpegLogLine } from '../../engine/logs/ffmpeg-log-parser.ts';

const now = Date.parse('2026-11-22T11:09:59.123Z');
/** Real stderr of Debian's ffmpeg 5.1 with -loglevel repeat+level+<level> (lavfi sources, broken inputs). */
const samples = readFileSync(new URL('../fixtures/ffmpeg-stderr/levels.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);

describe('parseFfmpegLogLine', () => {
  it('reads the level tag with and without a context', () => {
    expect(parseFfmpegLogLine('[info] Stream mapping:', now)).toEqual({ time: now, level: 'INFO', text: 'Stream mapping:', source: 'ffmpeg' });
    expect(parseFfmpegLogLine('[h264 @ 0x5581] [error] non-existing PPS 0 referenced', now)).toEqual({
      time: now,
      level: 'ERROR',
      text: '[h264 @ 0x5581] non-existing PPS 0 referenced',
      source: 'ffmpeg',
    });
    expect(parseFfmpegLogLine('[udp @ 0x562d12fc61c0] [warning] Circular buffer overrun.\n', now).level).toBe('WARNING');
  });

  it('maps every ffmpeg level', () => {
    const cases = { panic: 'FATAL', fatal: 'FATAL', error: 'ERROR', warning: 'WARNING', info: 'INFO', verbose: 'VERBOSE', debug: 'DEBUG', trace: 'TRACE' };
    for (const [tag, level] of Object.entries(cases)) expect(parseFfmpegLogLine(`[${tag}] message`, now).level).toBe(level);
  });

  it('keeps the indentation of the message and drops trailing blanks', () => {
    expect(parseFfmpegLogLine('[info]   Duration: N/A, start: 0.000000, bitrate: N/A\r', now).text).toBe('  Duration: N/A, start: 0.000000, bitrate: N/A');
  });

  it('reads an untagged or unknown line as INFO', () => {
    expect(parseFfmpegLogLine('frame=  100 fps= 25', now)).toEqual({ time: now, level: 'INFO', text: 'frame=  100 fps= 25', source: 'ffmpeg' });
    expect(parseFfmpegLogLine('[loud] what', now)).toMatchObject({ level: 'INFO', text: '[loud] what' });
    expect(parseFfmpegLogLine('', now)).toMatchObject({ level: 'INFO', text: '' });
  });

  it('reads the recorded ffmpeg 5.1 samples: no tag is left in the text and each level is found', () => {
    const parsed = samples.map((raw) => parseFfmpegLogLine(raw, now));
    for (const line of parsed) expect(line.text).not.toMatch(/\[(panic|fatal|error|warning|info|verbose|debug|trace)\]/);
    expect(new Set(parsed.map((line) => line.level))).toEqual(new Set(['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'WARNING', 'ERROR', 'FATAL']));
    expect(parsed.find((line) => line.text.includes('non-existing PPS'))).toMatchObject({ level: 'ERROR', text: expect.stringMatching(/^\[h264 @ 0x[0-9a-f]+\] non-existing PPS 0 referenced$/) });
    expect(parsed.find((line) => line.text.includes('Unknown encoder'))).toMatchObject({ level: 'FATAL', text: "Unknown encoder 'nosuchcodec'" });
    expect(parsed.find((line) => line.text.startsWith('[udp @'))).toMatchObject({ level: 'ERROR' });
    expect(parsed.find((line) => line.text.includes('Circular buffer overrun'))).toMatchObject({ level: 'WARNING' });
  });
});

describe('ffmpegLogLevelFor', () => {
  it('asks ffmpeg for what the job level keeps', () => {
    expect(ffmpegLogLevelFor('INFO')).toBe('info');
    expect(ffmpegLogLevelFor('NOTICE')).toBe('warning');
    expect(ffmpegLogLevelFor('ERROR')).toBe('error');
    expect(ffmpegLogLevelFor('TRACE')).toBe('trace');
  });
});
