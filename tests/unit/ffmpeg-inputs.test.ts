import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs } from '../../engine/ffmpeg/build-args.ts';
import { FfmpegSpecError, assertHost, parseUrl } from '../../engine/ffmpeg/validate.ts';
import type { InputSpec } from '../../engine/types.ts';
import { testEncoding, testJob, valueOf } from './ffmpeg-argv.ts';

/** The argv from the first input option to the last `-i` value of the main input. */
function inputArgs(input: InputSpec, overrides: Parameters<typeof testJob>[0] = {}): string[] {
  const args = buildFfmpegArgs(testJob({ input, ...overrides })).args;
  const start = args.indexOf('-stats_period') + 2;
  const end = args.indexOf('-i', start) + 2;
  return args.slice(start, end);
}

function inputUrl(input: InputSpec, overrides: Parameters<typeof testJob>[0] = {}): string {
  return valueOf(inputArgs(input, overrides), '-i')!;
}

describe('inputs: uri', () => {
  it('UDP multicast gets a large receive queue, overruns that are not fatal and a read timeout', () => {
    const url = new URL(inputUrl({ type: 'uri', uri: 'udp://@239.1.1.1:1234' }).replace('udp://@', 'http://'));
    expect(url.searchParams.get('fifo_size')).toBe('65536');
    expect(url.searchParams.get('overrun_nonfatal')).toBe('1');
    expect(url.searchParams.get('buffer_size')).toBe(String(8 * 1024 * 1024));
    // The job's stale timeout (15 s), in microseconds: a dead source ends the process.
    expect(url.searchParams.get('timeout')).toBe('15000000');
    expect(inputUrl({ type: 'uri', uri: 'udp://@239.1.1.1:1234' })).toMatch(/^udp:\/\/@239\.1\.1\.1:1234\?/);
  });

  it('a live MPEG-TS transport is probed for a bounded time, not the 5 s default; other sources keep the default', () => {
    for (const uri of ['udp://@239.1.1.1:1234', 'rtp://239.1.1.1:5004', 'srt://10.0.0.1:9000', 'tcp://10.0.0.1:9000']) {
      // A relay's one MPEG-TS output without tee takes video of a size not seen yet: the shortest step.
      const args = inputArgs({ type: 'uri', uri });
      expect(valueOf(args, '-analyzeduration'), uri).toBe('300000');
      expect(valueOf(args, '-probesize'), uri).toBe('2000000');
    }
    for (const uri of ['http://example.com/live/index.m3u8', 'rtmp://example.com/live/key', '/media/in.ts']) {
      expect(inputArgs({ type: 'uri', uri }), uri).not.toContain('-analyzeduration');
    }
  });

  it('copied video for the tee muxer, FLV or MP4 is probed until its size is known (1 s), longer on each retry, up to 5 s', () => {
    const udp = { type: 'uri', uri: 'udp://@239.1.1.1:1234' } as const;
    const twoOutputs = { outputs: [{ index: 0, type: 'udp', host: '239.2.2.2', port: 5000 }, { index: 1, type: 'udp', host: '239.2.2.3', port: 5000 }] } as Parameters<typeof testJob>[0];
    const rtmp = { outputs: [{ index: 0, type: 'rtmp', url: 'rtmp://a.example.com/app/k' }] } as Parameters<typeof testJob>[0];
    const probe = (overrides: Parameters<typeof testJob>[0], probeRetries = 0) => buildFfmpegArgs(testJob({ input: udp, ...overrides }), { probeRetries }).probe;
    expect(probe({})).toEqual({ seconds: 0.3, longerLeft: true });
    expect(probe(twoOutputs)).toEqual({ seconds: 1, longerLeft: true });
    expect(probe(rtmp)).toEqual({ seconds: 1, longerLeft: true });
    // Encoded video: the encoder learns the size from the first frame.
    expect(probe({ ...twoOutputs, encoding: testEncoding() })).toEqual({ seconds: 0.3, longerLeft: true });
    expect(probe(twoOutputs, 1)).toEqual({ seconds: 2.5, longerLeft: true });
    expect(probe({}, 3)).toEqual({ seconds: 5, longerLeft: false });
    expect(probe({}, 9)).toEqual({ seconds: 5, longerLeft: false });
    const args = buildFfmpegArgs(testJob({ input: udp }), { probeRetries: 3 }).args;
    // 5 s of a 50 Mbit/s stream: the probe size does not cut it short.
    expect([valueOf(args, '-analyzeduration'), valueOf(args, '-probesize')]).toEqual(['5000000', '31250000']);
    expect(buildFfmpegArgs(testJob({ input: { type: 'uri', uri: 'rtmp://example.com/live/key' } })).probe).toBeUndefined();
  });

  it('UDP keeps the options the operator already put in the URL', () => {
    const url = inputUrl({ type: 'uri', uri: 'udp://@:1234?fifo_size=1000&localaddr=10.0.0.1' });
    expect(url).toContain('fifo_size=1000');
    expect(url).not.toContain('fifo_size=65536');
    expect(url).toContain('localaddr=10.0.0.1');
    expect(url).toContain('overrun_nonfatal=1');
  });

  it('RTP gets a socket buffer and a read timeout', () => {
    const url = inputUrl({ type: 'uri', uri: 'rtp://239.1.1.1:5000' });
    expect(url).toContain('buffer_size=');
    expect(url).toContain('timeout=15000000');
    expect(url).not.toContain('fifo_size');
  });

  it('SRT caller: a timeout; SRT listener: none (it waits for its caller)', () => {
    expect(inputUrl({ type: 'uri', uri: 'srt://encoder.example.com:9000?mode=caller&latency=200000' })).toBe(
      'srt://encoder.example.com:9000?mode=caller&latency=200000&timeout=15000000',
    );
    expect(inputUrl({ type: 'uri', uri: 'srt://:9000?mode=listener' })).toBe('srt://:9000?mode=listener');
    expect(() => inputUrl({ type: 'uri', uri: 'srt://:9000?mode=caller' })).toThrow(/caller needs a host/);
  });

  it.each([
    ['rtmp://origin.example.com/live/stream', '-rw_timeout'],
    ['rtmps://origin.example.com/live/stream', '-rw_timeout'],
    ['http://cdn.example.com/live/index.m3u8', '-rw_timeout'],
    ['https://cdn.example.com/live/index.m3u8', '-rw_timeout'],
    ['tcp://10.0.0.5:6000', '-rw_timeout'],
    ['rtsp://camera.local:554/stream1', '-timeout'],
  ])('%s gets %s so a dead source ends the process', (uri, option) => {
    const args = inputArgs({ type: 'uri', uri });
    expect(valueOf(args, option)).toBe('15000000');
    expect(valueOf(args, '-i')).toBe(uri);
  });

  it('the I/O timeout stays within 5 to 60 seconds of the stale timeout', () => {
    expect(valueOf(inputArgs({ type: 'uri', uri: 'tcp://10.0.0.5:6000' }, { staleTimeoutSeconds: 1 }), '-rw_timeout')).toBe('5000000');
    expect(valueOf(inputArgs({ type: 'uri', uri: 'tcp://10.0.0.5:6000' }, { staleTimeoutSeconds: 600 }), '-rw_timeout')).toBe('60000000');
  });

  it('the token is appended as token=<value> to http(s), rtmp(s) and rtsp, URL-encoded, replacing a stale one', () => {
    expect(inputUrl({ type: 'uri', uri: 'https://cdn.example.com/live.m3u8', token: 'a b&c' })).toBe('https://cdn.example.com/live.m3u8?token=a%20b%26c');
    expect(inputUrl({ type: 'uri', uri: 'rtmp://origin.example.com/live/x?token=old&x=1', token: 'new' })).toBe('rtmp://origin.example.com/live/x?x=1&token=new');
    expect(inputUrl({ type: 'uri', uri: 'rtsp://cam.local/s', token: 't' })).toBe('rtsp://cam.local/s?token=t');
    expect(() => inputUrl({ type: 'uri', uri: 'udp://@:1234', token: 't' })).toThrow(/token can only be sent/);
  });

  it('a file of a LIVE job is read at native rate and never looped implicitly; a VOD file is read as fast as possible', () => {
    const live = inputArgs({ type: 'uri', uri: '/media/in:put.ts' });
    expect(live).toEqual(['-re', '-i', 'file:/media/in:put.ts']);
    expect(live).not.toContain('-stream_loop');
    expect(inputArgs({ type: 'uri', uri: 'file:///media/a%20b.mp4' }, { videoType: 'VOD' })).toEqual(['-i', 'file:/media/a b.mp4']);
  });

  it('selects a program of a multi-program transport stream through the maps', () => {
    const args = buildFfmpegArgs(testJob({ input: { type: 'uri', uri: 'udp://@239.1.1.1:1234', program: 1010 } })).args;
    expect(args).toEqual(expect.arrayContaining(['-map', '0:p:1010:v?', '-map', '0:p:1010:a?']));
    expect(() => buildFfmpegArgs(testJob({ input: { type: 'uri', uri: 'udp://@:1', program: 0 } }))).toThrow(/Program number/);
  });

  it('forces the decoder before the input when one is named', () => {
    const args = inputArgs({ type: 'uri', uri: 'udp://@:1234', videoDecoder: 'h264_cuvid' });
    expect(args.slice(0, 2)).toEqual(['-c:v', 'h264_cuvid']);
    expect(() => inputArgs({ type: 'uri', uri: 'udp://@:1234', videoDecoder: '-f lavfi' })).toThrow(FfmpegSpecError);
  });

  it.each([
    ['ftp://example.com/a.ts', /scheme "ftp:\/\/" is not allowed/],
    ['javascript://x', /not allowed/],
    ['udp://-f:1234', /not a hostname/],
    ['rtmp://--help/live/x', /not a hostname/],
    ['http://exa mple.com/x', /spaces/],
    ['udp://239.1.1.1', /needs a port/],
    ['udp://239.1.1.1:70000', /port must be/],
    ['media/relative.ts', /not a URL/],
    ['-i', /not a URL/],
    ['http://example.com/a\nb', /control characters/],
  ])('refuses %s', (uri, message) => {
    expect(() => buildFfmpegArgs(testJob({ input: { type: 'uri', uri } }))).toThrow(message);
  });
});

describe('inputs: storage, args and failover', () => {
  it('a storage file (already resolved inside its root) goes through the file protocol, at native rate when LIVE', () => {
    expect(inputArgs({ type: 'storage', path: '/srv/storage/main/movie.mp4' })).toEqual(['-re', '-i', 'file:/srv/storage/main/movie.mp4']);
    expect(inputArgs({ type: 'storage', path: '/srv/storage/main/movie.mp4' }, { videoType: 'VOD' })).toEqual(['-i', 'file:/srv/storage/main/movie.mp4']);
    expect(() => inputArgs({ type: 'storage', path: 'movie.mp4' })).toThrow(/absolute path/);
  });

  it('playlist, dvb, dev and multiviewer inputs pass their resolved arguments through; later inputs are numbered after theirs', () => {
    const args = buildFfmpegArgs(
      testJob({
        input: { type: 'args', source: 'multiviewer', args: ['-f', 'lavfi', '-i', 'testsrc2', '-f', 'lavfi', '-i', 'sine'] },
        encoding: {
          video: { codec: 'libx264', bitrateKbps: 1000 },
          audio: { tracks: [{ source: 'AUTO', codec: 'aac' }] },
          watermark: { file: '/srv/logo.png', alpha: 0, width: 10, height: 10, x: 0, y: 0 },
        },
      }),
    ).args;
    expect(args.join(' ')).toContain('-f lavfi -i testsrc2 -f lavfi -i sine -i file:/srv/logo.png');
    // The watermark is input 2, after the two the multiviewer opened.
    expect(valueOf(args, '-filter_complex')).toContain('[2:v:0]scale=10:10');
    expect(() => buildFfmpegArgs(testJob({ input: { type: 'args', source: 'dvb', args: ['-f', 'mpegts'] } }))).toThrow(/no -i/);
  });

  it('with useFailover the failover input replaces the primary', () => {
    const job = testJob({
      input: { type: 'uri', uri: 'udp://@239.1.1.1:1234' },
      failover: { input: { type: 'storage', path: '/srv/slate.mp4' }, switchTimeoutSeconds: 30 },
    });
    expect(valueOf(buildFfmpegArgs(job).args, '-i')).toMatch(/^udp:\/\/@239\.1\.1\.1:1234\?/);
    const failover = buildFfmpegArgs(job, { useFailover: true }).args;
    expect(valueOf(failover, '-i')).toBe('file:/srv/slate.mp4');
    expect(failover.join(' ')).not.toContain('239.1.1.1');
    expect(() => buildFfmpegArgs(testJob(), { useFailover: true })).toThrow(/no failover input/);
  });
});

describe('hosts and URLs', () => {
  it('a host is a hostname or an IP address, never an option', () => {
    expect(assertHost('encoder-1.example.com', 'h')).toBe('encoder-1.example.com');
    expect(assertHost('10.1.2.3', 'h')).toBe('10.1.2.3');
    expect(assertHost('::1', 'h')).toBe('[::1]');
    expect(assertHost('[2001:db8::1]', 'h')).toBe('[2001:db8::1]');
    for (const bad of ['-f', '-listen', 'a b', 'host;rm', 'x'.repeat(64) + '.com', '', 'exa_mple.com', '$(id)']) {
      expect(() => assertHost(bad, 'h'), bad).toThrow(FfmpegSpecError);
    }
  });

  it('parses authority, port, path and query', () => {
    expect(parseUrl('rtmp://user:p@ss@host.example.com:1935/app/key?x=1', ['rtmp'], 'u')).toMatchObject({
      scheme: 'rtmp',
      userinfo: 'user:p@ss',
      host: 'host.example.com',
      port: 1935,
      path: '/app/key',
      query: 'x=1',
    });
    expect(parseUrl('udp://[ff02::1]:1234', ['udp'], 'u')).toMatchObject({ host: '[ff02::1]', port: 1234 });
  });
});
