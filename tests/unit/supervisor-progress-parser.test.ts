import { describe, expect, it } from 'vitest';
import { isAdvance, ProgressParser } from '../../engine/supervisor/progress-parser.ts';

/** Two blocks exactly as ffmpeg 5.1 writes them with `-progress pipe:3` (a UDP relay). */
const REAL = `frame=155
fps=150.00
stream_0_0_q=-1.0
bitrate= 150.2kbits/s
total_size=115620
out_time_us=6160011
out_time_ms=6160011
out_time=00:00:06.160011
dup_frames=0
drop_frames=0
speed=5.96x
progress=continue
frame=165
fps=112.06
stream_0_0_q=-1.0
bitrate= 149.5kbits/s
total_size=122576
out_time_us=6560011
out_time_ms=6560011
out_time=00:00:06.560011
dup_frames=1
drop_frames=2
speed=4.46x
progress=end
`;

describe('ProgressParser', () => {
  it('parses ffmpeg 5.1 progress blocks into numbers', () => {
    const blocks = new ProgressParser().push(REAL);
    expect(blocks).toEqual([
      { frame: 155, fps: 150, bitrateKbps: 150.2, totalSizeBytes: 115620, outTimeMs: 6160, speed: 5.96, dupFrames: 0, dropFrames: 0, ended: false },
      { frame: 165, fps: 112.06, bitrateKbps: 149.5, totalSizeBytes: 122576, outTimeMs: 6560, speed: 4.46, dupFrames: 1, dropFrames: 2, ended: true },
    ]);
  });

  it('gives the same blocks however the pipe splits the text', () => {
    const whole = new ProgressParser().push(REAL);
    for (const size of [1, 3, 7, 64]) {
      const parser = new ProgressParser();
      const blocks = [];
      for (let i = 0; i < REAL.length; i += size) blocks.push(...parser.push(REAL.slice(i, i + size)));
      expect(blocks).toEqual(whole);
    }
  });

  it('leaves out values ffmpeg reports as N/A', () => {
    const [block] = new ProgressParser().push('frame=0\nfps=0.00\nbitrate=N/A\ntotal_size=N/A\nout_time_us=N/A\nout_time=N/A\nspeed=N/A\nprogress=continue\n');
    expect(block).toEqual({ frame: 0, fps: 0, ended: false });
  });

  it('holds a block back until its progress line arrives', () => {
    const parser = new ProgressParser();
    expect(parser.push('frame=1\ntotal_size=10')).toEqual([]);
    expect(parser.push('0\nprogress=continue\n')).toEqual([{ frame: 1, totalSizeBytes: 100, ended: false }]);
  });
});

describe('isAdvance', () => {
  it('counts a block as progress only when frames, bytes or output time moved', () => {
    const a = { frame: 10, totalSizeBytes: 1000, outTimeMs: 400, ended: false };
    expect(isAdvance(undefined, a)).toBe(true);
    expect(isAdvance(a, { ...a })).toBe(false);
    expect(isAdvance(a, { ...a, frame: 11 })).toBe(true);
    expect(isAdvance(a, { ...a, totalSizeBytes: 1200 })).toBe(true);
    // audio only: no frames, but the output time moves
    expect(isAdvance({ outTimeMs: 400, ended: false }, { outTimeMs: 900, ended: false })).toBe(true);
  });
});
