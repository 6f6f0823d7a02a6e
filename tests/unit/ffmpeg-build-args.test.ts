import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs, progressPeriodSeconds } from '../../engine/ffmpeg/build-args.ts';
import { ffmpegLogLevelFor } from '../../engine/logs/ffmpeg-log-parser.ts';
import { escapeToken, formatOptionList, formatTee } from '../../engine/ffmpeg/tee.ts';
import { LOG_LEVELS, type OutputSpec } from '../../engine/types.ts';
import { getToken, parseOptionList, parseTee, teeSlaves, testEncoding, testJob } from './ffmpeg-argv.ts';

describe('buildFfmpegArgs', () => {
  it('starts with the fixed prefix: no banner, no stdin, no stats, level-tagged log, progress on fd 3', () => {
    const { args } = buildFfmpegArgs(testJob());
    expect(args.slice(0, 10)).toEqual(['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'repeat+level+info', '-progress', 'pipe:3', '-stats_period', '2', '-thread_queue_size']);
    expect(buildFfmpegArgs(testJob(), { ffmpegLogLevel: 'debug' }).args[4]).toBe('repeat+level+debug');
    expect(() => buildFfmpegArgs(testJob(), { ffmpegLogLevel: 'loud' })).toThrow(/Unknown ffmpeg log level/);
  });

  it('asks for a progress block every 2 s of a live job, every second of a VOD, and four within a failover switch timeout under 8 s', () => {
    expect(progressPeriodSeconds(testJob())).toBe(2);
    expect(progressPeriodSeconds(testJob({ videoType: 'VOD' }))).toBe(1);
    const failover = (switchTimeoutSeconds: number) => testJob({ failover: { input: { type: 'uri', uri: 'udp://127.0.0.1:5002' }, switchTimeoutSeconds } });
    expect(progressPeriodSeconds(failover(30))).toBe(2);
    expect(progressPeriodSeconds(failover(8))).toBe(2);
    expect(progressPeriodSeconds(failover(4))).toBe(1);
    expect(progressPeriodSeconds(failover(2))).toBe(0.5);
    expect(progressPeriodSeconds(failover(1))).toBe(0.25);
    const { args } = buildFfmpegArgs(failover(2));
    expect(args[args.indexOf('-stats_period') + 1]).toBe('0.5');
  });

  it("asks ffmpeg for the job's log level, mapped as the log parser maps it", () => {
    for (const level of LOG_LEVELS) expect(buildFfmpegArgs(testJob({ logLevel: level })).args[4], level).toBe(`repeat+level+${ffmpegLogLevelFor(level)}`);
    expect(buildFfmpegArgs(testJob({ logLevel: 'WARNING' })).args[4]).toBe('repeat+level+warning');
  });

  it('a relay copies the video and audio of the source', () => {
    const { args } = buildFfmpegArgs(testJob());
    expect(args).toEqual(expect.arrayContaining(['-map', '0:v?', '-map', '0:a?', '-c', 'copy']));
    expect(args).not.toContain('-filter_complex');
  });

  it('a relay to MPEG-TS streams forwards from the first packet; one with a segmented, RTMP or encoded output begins at a keyframe', () => {
    expect(buildFfmpegArgs(testJob()).args).toContain('-copyinkf');
    const streams: OutputSpec[] = [
      { index: 0, type: 'udp', host: '127.0.0.1', port: 6000 },
      { index: 1, type: 'srt', mode: 'caller', host: '127.0.0.1', port: 9000 },
      { index: 2, type: 'mpegts' },
    ];
    expect(buildFfmpegArgs(testJob({ outputs: streams })).args).toContain('-copyinkf');
    const withHls: OutputSpec[] = [...streams, { index: 3, type: 'hls', dir: '/tmp/x', segmentDurationSeconds: 2, containerType: 'TS' } as OutputSpec];
    expect(buildFfmpegArgs(testJob({ outputs: withHls })).args).not.toContain('-copyinkf');
    expect(buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'rtmp', url: 'rtmp://127.0.0.1/live/a' }] })).args).not.toContain('-copyinkf');
    expect(buildFfmpegArgs(testJob({ outputs: streams, encoding: testEncoding() })).args).not.toContain('-copyinkf');
  });

  it('is an argv array: every entry its own string, nothing for a shell, user text never split or joined', () => {
    const outputs: OutputSpec[] = [
      { index: 0, type: 'rtmp', url: 'rtmp://live.example.com/app/key;rm${IFS}-rf', username: 'u', password: "$(id)`x`'q'\"d\"|&;" },
      { index: 1, type: 'srt', mode: 'caller', host: 'a.example.com', port: 9000, passphrase: "x; rm -rf / && echo 'pwned'", streamId: '| nc evil 1' },
    ];
    const { args } = buildFfmpegArgs(testJob({ name: 'name; rm -rf /', outputs, encoding: testEncoding() }));
    expect(Array.isArray(args)).toBe(true);
    expect(args.every((arg) => typeof arg === 'string')).toBe(true);
    // No entry is a whole command line, and nothing starts a shell.
    expect(args.some((arg) => /^(sh|bash|\/bin\/sh)$/.test(arg) || arg === '-c' || arg.startsWith('ffmpeg '))).toBe(false);
    // The user's texts arrive unchanged where ffmpeg reads them.
    const [rtmp, srt] = teeSlaves(args);
    expect(rtmp.url).toBe("rtmp://u:$(id)`x`'q'\"d\"|&;@live.example.com/app/key;rm${IFS}-rf");
    expect(srt.options.passphrase).toBe("x; rm -rf / && echo 'pwned'");
    expect(srt.options.streamid).toBe('| nc evil 1');
    expect(teeSlaves(args)).toHaveLength(2);
  });

  it('no value taken from the spec can become an option: every one follows its option name', () => {
    const { args } = buildFfmpegArgs(
      testJob({
        input: { type: 'uri', uri: 'srt://ingest.example.com:9000?mode=caller&passphrase=-y' },
        outputs: [{ index: 0, type: 'hls', dir: '/srv/-hls', segmentDurationSeconds: 2, containerType: 'TS' }],
        encoding: testEncoding({ video: { codec: 'libx264', bitrateKbps: 1000, params: { preset: '-i' } } }),
      }),
    );
    args.forEach((arg, i) => {
      if (arg === '-i' && args[i - 1] === '-preset:v') return;
      if (arg.startsWith('-') && !/^-[a-z_0-9:+-]+$/i.test(arg)) throw new Error(`unexpected option-like entry ${arg}`);
    });
    expect(args[args.indexOf('-preset:v') + 1]).toBe('-i');
  });

  it('creates the output directories before start and says when stdout carries TS', () => {
    const command = buildFfmpegArgs(
      testJob({
        outputs: [
          { index: 0, type: 'hls', dir: '/srv/out/hls', segmentDurationSeconds: 2, containerType: 'TS' },
          { index: 1, type: 'dash', dir: '/srv/out/dash', segmentDurationSeconds: 2 },
          { index: 2, type: 'cmaf', dir: '/srv/out/cmaf/', segmentDurationSeconds: 2, disabled: true },
          { index: 3, type: 'mpegts' },
        ],
      }),
    );
    expect(command.directories).toEqual(['/srv/out/hls', '/srv/out/dash']);
    expect(command.usesStdout).toBe(true);
  });

  it('asks encoders for global headers only when an FLV or MP4 output needs them', () => {
    const udp: OutputSpec = { index: 0, type: 'udp', host: '239.1.1.1', port: 5000 };
    expect(buildFfmpegArgs(testJob({ outputs: [udp], encoding: testEncoding() })).args).not.toContain('+global_header');
    const withRtmp = buildFfmpegArgs(testJob({ outputs: [udp, { index: 1, type: 'rtmp', url: 'rtmp://a.example.com/app/k' }], encoding: testEncoding() })).args;
    expect(withRtmp).toEqual(expect.arrayContaining(['-flags:v', '+global_header', '-flags:a', '+global_header']));
    // A relay copies streams: there is no encoder to ask.
    expect(buildFfmpegArgs(testJob({ outputs: [{ index: 1, type: 'rtmp', url: 'rtmp://a.example.com/app/k' }] })).args).not.toContain('+global_header');
  });

  it('writes a lone output that needs nothing of tee as its only output file, so ffmpeg counts its bytes', () => {
    const udp: OutputSpec = { index: 3, type: 'udp', host: '239.2.2.2', port: 5000 };
    const single = buildFfmpegArgs(testJob({ outputs: [udp] }));
    expect(single.args).not.toContain('tee');
    expect(single.args.slice(-6)).toEqual(['-c', 'copy', '-copyinkf', '-f', 'mpegts', 'udp://239.2.2.2:5000?pkt_size=1316']);
    expect(single.outputs).toEqual([{ index: 3, via: 'direct', format: 'mpegts', url: 'udp://239.2.2.2:5000?pkt_size=1316' }]);
    expect(single.progressOutput).toBe(3);
    const rtmp = buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'rtmp', url: 'rtmp://a.example.com/app/k' }], encoding: testEncoding() }));
    expect(rtmp.args.slice(-5)).toEqual(['-flvflags', 'no_duration_filesize', '-f', 'flv', 'rtmp://a.example.com/app/k']);
    expect(rtmp.progressOutput).toBe(0);
    // Beside another output, or needing what only tee gives (a queue for a listener, protocol options, a stream subset), it stays a tee slave.
    const two = buildFfmpegArgs(testJob({ outputs: [udp, { index: 4, type: 'mpegts' }] }));
    expect(two.outputs.map((o) => o.via)).toEqual(['tee', 'tee']);
    expect(two.progressOutput).toBeUndefined();
    for (const output of [
      { index: 0, type: 'srt', mode: 'listener', host: '', port: 9001 },
      { index: 0, type: 'srt', mode: 'caller', host: 'a.example.com', port: 9000 },
      { index: 0, type: 'tcp', host: '', port: 7001, listen: true },
    ] as OutputSpec[]) {
      expect(buildFfmpegArgs(testJob({ outputs: [output] })).outputs[0].via, JSON.stringify(output)).toBe('tee');
    }
    const profiles = [
      { width: 1280, height: 720, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
      { width: 640, height: 360, videoBitrateKbps: 800, audioBitrateKbps: 64 },
    ];
    expect(buildFfmpegArgs(testJob({ outputs: [udp], encoding: testEncoding({ profiles }) })).outputs[0].via).toBe('tee');
    // HLS and DASH write their own files: ffmpeg counts nothing for them.
    const hls = buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'hls', dir: '/srv/hls', segmentDurationSeconds: 2, containerType: 'TS' }] }));
    expect([hls.outputs[0].via, hls.progressOutput]).toEqual(['tee', undefined]);
    // A relay's RTMP output is an output of its own anyway, and the first output file when there is no tee.
    expect(buildFfmpegArgs(testJob({ outputs: [{ index: 2, type: 'rtmp', url: 'rtmp://a.example.com/app/k' }] })).progressOutput).toBe(2);
  });

  it('refuses an unknown input or output type and a bad video type', () => {
    expect(() => buildFfmpegArgs(testJob({ input: { type: 'ndi' } as never }))).toThrow(/Unknown input type "ndi"/);
    expect(() => buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'webrtc' } as never] }))).toThrow(/Unknown output type "webrtc"/);
    expect(() => buildFfmpegArgs(testJob({ videoType: 'BOTH' as never }))).toThrow(/LIVE or VOD/);
  });
});

describe('tee syntax', () => {
  it('escapes values so ffmpeg reads them back exactly', () => {
    const nasty = ["a:b", 'c|d', 'e]f[g', "h'i", 'j\\k', ' lead and trail ', 'v:0,a:0 v:1,a:1', '', 'plain'];
    for (const value of nasty) {
      const text = formatTee([{ options: [['f', 'mpegts'], ['opt', value]], url: 'udp://1.2.3.4:5?pkt_size=1316' }]);
      expect(parseTee(text)).toEqual([{ options: { f: 'mpegts', opt: value }, url: 'udp://1.2.3.4:5?pkt_size=1316' }]);
    }
  });

  it('escapes URLs holding the slave separator and nested option lists', () => {
    const slaves = parseTee(
      formatTee([
        { options: [['f', 'hls']], url: '/srv/a|b/index.m3u8' },
        { options: [['use_fifo', '1'], ['fifo_options', formatOptionList([['format_opts', 'x=1:y=2'], ['queue_size', '60']])]], url: "srt://h:1?x='q'" },
      ]),
    );
    expect(slaves.map((s) => s.url)).toEqual(['/srv/a|b/index.m3u8', "srt://h:1?x='q'"]);
    expect(parseOptionList(slaves[1].options.fifo_options)).toEqual({ format_opts: 'x=1:y=2', queue_size: '60' });
  });

  it('reads av_get_token the way ffmpeg does', () => {
    expect(getToken("  a\\:b'c:d'e  :rest", 0, ':')).toEqual({ token: 'a:bc:de', end: 14 });
    expect(escapeToken('a b', ':')).toBe('a\\ b');
    expect(() => formatTee([])).toThrow(/at least one output/);
  });
});
