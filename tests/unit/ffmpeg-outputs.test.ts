import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs } from '../../engine/ffmpeg/build-args.ts';
import type { OutputSpec } from '../../engine/types.ts';
import { outputsOf, parseOptionList, teeSlaves, testEncoding, testJob } from './ffmpeg-argv.ts';

function slavesFor(outputs: OutputSpec[], overrides: Parameters<typeof testJob>[0] = {}) {
  return outputsOf(buildFfmpegArgs(testJob({ outputs, ...overrides })));
}

function slaveFor(output: OutputSpec, overrides: Parameters<typeof testJob>[0] = {}) {
  return slavesFor([output], overrides)[0];
}

describe('outputs: UDP, SRT, TCP, RTMP, HTTP MPEG-TS', () => {
  it('UDP: MPEG-TS in 1316-byte datagrams, with TTL and local address when set', () => {
    const slave = slaveFor({ index: 0, type: 'udp', host: '239.2.2.2', port: 5000, ttl: 16, localAddress: '10.0.0.2' });
    expect(slave.options.f).toBe('mpegts');
    expect(slave.url).toBe('udp://239.2.2.2:5000?pkt_size=1316&ttl=16&localaddr=10.0.0.2');
    expect(slave.options.use_fifo).toBeUndefined();
  });

  it('UDP with RTP: the rtp_mpegts muxer, seven TS packets plus the RTP header per datagram', () => {
    const slave = slaveFor({ index: 0, type: 'udp', host: '10.0.0.9', port: 5004, rtp: true });
    expect(slave.options.f).toBe('rtp_mpegts');
    expect(slave.url).toBe('rtp://10.0.0.9:5004?pkt_size=1328');
  });

  it('UDP refuses hosts that are not hosts and ports out of range', () => {
    expect(() => slaveFor({ index: 0, type: 'udp', host: '-f', port: 5000 })).toThrow(/not a hostname/);
    expect(() => slaveFor({ index: 0, type: 'udp', host: '10.0.0.1|[f=flv]x', port: 5000 })).toThrow(/not a hostname/);
    expect(() => slaveFor({ index: 0, type: 'udp', host: '10.0.0.1', port: 0 })).toThrow(/port must be/);
    expect(() => slaveFor({ index: 0, type: 'udp', host: '10.0.0.1', port: 65536 })).toThrow(/port must be/);
    expect(() => slaveFor({ index: 0, type: 'udp', host: '10.0.0.1', port: 5000, ttl: 300 })).toThrow(/TTL/);
    expect(() => slaveFor({ index: 0, type: 'udp', host: '10.0.0.1', port: 5000, localAddress: 'eth0' })).toThrow(/not an IP address/);
  });

  it('SRT caller: latency in microseconds, passphrase with key length, stream id, as protocol options (any character survives)', () => {
    const slave = slaveFor({
      index: 0,
      type: 'srt',
      mode: 'caller',
      host: 'ingest.example.com',
      port: 9000,
      latencyMs: 250,
      passphrase: "pa:ss|wo]r[d 'x\\",
      pbkeylen: 32,
      streamId: '#!::r=live/a,m=publish',
    });
    expect(slave.url).toBe('srt://ingest.example.com:9000');
    expect(slave.options).toMatchObject({
      f: 'mpegts',
      mode: 'caller',
      latency: '250000',
      passphrase: "pa:ss|wo]r[d 'x\\",
      pbkeylen: '32',
      streamid: '#!::r=live/a,m=publish',
    });
    // Alone in its process, a caller that fails ends the process (the restart policy takes over).
    expect(slave.options.use_fifo).toBeUndefined();
  });

  it('SRT listener: binds every interface when no host is given, waits for callers in its own queue, sends no stream id', () => {
    const slave = slaveFor({ index: 0, type: 'srt', mode: 'listener', host: '', port: 9001, streamId: 'ignored' });
    expect(slave.url).toBe('srt://0.0.0.0:9001');
    expect(slave.options.mode).toBe('listener');
    expect(slave.options.streamid).toBeUndefined();
    expect(slave.options.use_fifo).toBe('1');
    expect(parseOptionList(slave.options.fifo_options)).toMatchObject({ drop_pkts_on_overflow: '1', attempt_recovery: '1', restart_with_keyframe: '1' });
  });

  it('SRT refuses a passphrase outside 10 to 79 characters and a key length without passphrase', () => {
    const srt = { index: 0, type: 'srt', mode: 'caller', host: 'h.example.com', port: 9000 } as const;
    expect(() => slaveFor({ ...srt, passphrase: 'short' })).toThrow(/10 to 79/);
    expect(() => slaveFor({ ...srt, passphrase: 'x'.repeat(80) })).toThrow(/longer than 79/);
    expect(() => slaveFor({ ...srt, pbkeylen: 16 })).toThrow(/needs a passphrase/);
    expect(() => slaveFor({ ...srt, passphrase: 'long enough', pbkeylen: 20 as 16 })).toThrow(/16, 24 or 32/);
    expect(() => slaveFor({ ...srt, host: '' })).toThrow(/host is required/);
  });

  it('TCP: MPEG-TS to a host, or to the client of a listening port (in its own queue)', () => {
    expect(slaveFor({ index: 0, type: 'tcp', host: '10.0.0.5', port: 7000 })).toMatchObject({ url: 'tcp://10.0.0.5:7000', options: { f: 'mpegts' } });
    const listen = slaveFor({ index: 0, type: 'tcp', host: '', port: 7001, listen: true });
    expect(listen.url).toBe('tcp://0.0.0.0:7001?listen=1');
    expect(listen.options.use_fifo).toBe('1');
  });

  it('RTMP: FLV, credentials in the URL as ffmpeg reads them', () => {
    const slave = slaveFor({ index: 0, type: 'rtmp', url: 'rtmp://live.example.com/app/key', username: 'pub', password: 'p@ss:w0rd!' }, { encoding: testEncoding() });
    expect(slave.options.f).toBe('flv');
    expect(slave.url).toBe('rtmp://pub:p@ss:w0rd!@live.example.com/app/key');
    expect(slave.options.flvflags).toBe('no_duration_filesize');
  });

  it('RTMP refuses credentials ffmpeg would split wrong, credentials in the URL itself and non-RTMP URLs', () => {
    const rtmp = { index: 0, type: 'rtmp', url: 'rtmp://live.example.com/app/key' } as const;
    expect(() => slaveFor({ ...rtmp, username: 'a:b', password: 'secret' })).toThrow(/username cannot contain/);
    expect(() => slaveFor({ ...rtmp, username: 'user', password: 'a/b' })).toThrow(/password cannot contain/);
    expect(() => slaveFor({ ...rtmp, username: 'user', password: '' })).toThrow(/need a password/);
    expect(() => slaveFor({ ...rtmp, url: 'rtmp://u:p@live.example.com/app/key' })).toThrow(/username and password fields/);
    expect(() => slaveFor({ ...rtmp, url: 'http://live.example.com/app/key' })).toThrow(/not allowed/);
    expect(() => slaveFor({ ...rtmp, url: 'rtmp://-live.example.com/app' })).toThrow(/not a hostname/);
    expect(() => slaveFor({ ...rtmp, url: 'rtmp://live.example.com' })).toThrow(/application and a stream/);
    expect(() => slaveFor(rtmp, { encoding: testEncoding({ video: { codec: 'libx265', bitrateKbps: 1000 } }) })).toThrow(/H\.264 video only/);
  });

  it('HTTP MPEG-TS served by the product: TS on stdout', () => {
    const command = buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'mpegts' }] }));
    expect(command.usesStdout).toBe(true);
    expect(outputsOf(command)[0]).toMatchObject({ url: 'pipe:1', options: { f: 'mpegts' } });
    expect(buildFfmpegArgs(testJob()).usesStdout).toBe(false);
    expect(() => buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'mpegts' }, { index: 1, type: 'mpegts' }] }))).toThrow(/one HTTP MPEG-TS output/);
  });
});

describe('outputs: HLS, DASH, CMAF', () => {
  const hls = { index: 0, type: 'hls', dir: '/var/lib/mediaplane/hls/relay-1', segmentDurationSeconds: 4, containerType: 'TS' } as const;

  it('HLS TS, LIVE: segment duration, a live list with deleted segments, numbering from the clock', () => {
    const slave = slaveFor({ ...hls, listSize: 5, programDateTime: true });
    expect(slave.url).toBe('/var/lib/mediaplane/hls/relay-1/index.m3u8');
    expect(slave.options).toMatchObject({
      f: 'hls',
      hls_time: '4',
      hls_list_size: '5',
      hls_segment_type: 'mpegts',
      hls_segment_filename: '/var/lib/mediaplane/hls/relay-1/segment_%05d.ts',
      hls_start_number_source: 'epoch',
    });
    expect(slave.options.hls_flags.split('+')).toEqual(expect.arrayContaining(['delete_segments', 'program_date_time', 'independent_segments']));
    expect(slave.options.hls_playlist_type).toBeUndefined();
    expect(buildFfmpegArgs(testJob({ outputs: [hls] })).directories).toEqual(['/var/lib/mediaplane/hls/relay-1']);
  });

  it('HLS, LIVE with list size 0 keeps every segment in an EVENT playlist; VOD keeps all in a VOD playlist', () => {
    const event = slaveFor({ ...hls, listSize: 0 });
    expect(event.options.hls_list_size).toBe('0');
    expect(event.options.hls_playlist_type).toBe('event');
    expect(event.options.hls_flags).not.toContain('delete_segments');
    const vod = slaveFor({ ...hls, listSize: 5 }, { videoType: 'VOD' });
    expect(vod.options).toMatchObject({ hls_list_size: '0', hls_playlist_type: 'vod' });
    expect(vod.options.hls_flags).not.toContain('delete_segments');
    expect(vod.options.hls_start_number_source).toBeUndefined();
  });

  it('HLS fMP4: m4s segments with an init segment', () => {
    const slave = slaveFor({ ...hls, containerType: 'FMP4' }, { encoding: testEncoding() });
    expect(slave.options).toMatchObject({ hls_segment_type: 'fmp4', hls_fmp4_init_filename: 'init.mp4', hls_segment_filename: '/var/lib/mediaplane/hls/relay-1/segment_%05d.m4s' });
  });

  it('HLS AES-128: the key info file ffmpeg reads (beside the key unless named), never the key itself', () => {
    const encryption = { keyFile: '/var/lib/mediaplane/keys/relay-1.key', keyUrl: 'https://tv.example.com/api/keys/relay-1', iv: '00112233445566778899aabbccddeeff' };
    const command = buildFfmpegArgs(testJob({ outputs: [{ ...hls, encryption }] }));
    expect(teeSlaves(command.args)[0].options.hls_key_info_file).toBe('/var/lib/mediaplane/keys/relay-1.key.keyinfo');
    expect(command.args.join(' ')).not.toMatch(/00112233445566778899aabbccddeeff/);
    expect(teeSlaves(buildFfmpegArgs(testJob({ outputs: [{ ...hls, encryption: { ...encryption, keyInfoFile: '/run/k.info' } }] })).args)[0].options.hls_key_info_file).toBe('/run/k.info');
    expect(() => slaveFor({ ...hls, encryption: { ...encryption, keyUrl: 'ftp://x/y' } })).toThrow(/not allowed/);
    expect(() => slaveFor({ ...hls, encryption: { ...encryption, iv: 'xyz' } })).toThrow(/32 hexadecimal/);
  });

  it('refuses output directories that are relative or hold characters the muxers read as syntax', () => {
    for (const dir of ['hls/relay', '/srv/a%d', '/srv/a:b', '/srv/$Number$', '/srv/a b', "/srv/a'b", '/srv/a|b']) {
      expect(() => slaveFor({ ...hls, dir }), dir).toThrow(/absolute path|must not contain/);
    }
    expect(() => slaveFor({ ...hls, segmentDurationSeconds: 0 })).toThrow(/segment duration/);
  });

  it('DASH: fMP4 segments, template and timeline, video and audio adaptation sets, a live window', () => {
    const encoding = testEncoding();
    const slave = slaveFor({ index: 0, type: 'dash', dir: '/srv/dash/e1', segmentDurationSeconds: 2, listSize: 10 }, { encoding });
    expect(slave.url).toBe('/srv/dash/e1/manifest.mpd');
    expect(slave.options).toMatchObject({
      f: 'dash',
      seg_duration: '2',
      window_size: '10',
      use_template: '1',
      use_timeline: '1',
      dash_segment_type: 'mp4',
      adaptation_sets: 'id=0,streams=v id=1,streams=a',
    });
    expect(slaveFor({ index: 0, type: 'dash', dir: '/srv/dash/e1', segmentDurationSeconds: 2 }, { videoType: 'VOD', encoding }).options.window_size).toBe('0');
    expect(slaveFor({ index: 0, type: 'dash', dir: '/srv/dash/e1', segmentDurationSeconds: 2 }, { noSound: true, encoding }).options.adaptation_sets).toBe('id=0,streams=v');
  });

  it('CMAF: the dash muxer writing an HLS master playlist beside the DASH manifest', () => {
    const slave = slaveFor({ index: 0, type: 'cmaf', dir: '/srv/cmaf/e1', segmentDurationSeconds: 2 }, { encoding: testEncoding() });
    expect(slave.url).toBe('/srv/cmaf/e1/manifest.mpd');
    expect(slave.options).toMatchObject({ f: 'dash', dash_segment_type: 'mp4', hls_playlist: '1', hls_master_name: 'master.m3u8' });
  });
});

describe('copied streams into FLV and MP4', () => {
  const outputs: OutputSpec[] = [
    { index: 0, type: 'udp', host: '239.2.2.2', port: 5000 },
    { index: 1, type: 'rtmp', url: 'rtmp://live.example.com/app/key' },
    { index: 2, type: 'hls', dir: '/srv/hls/fmp4', segmentDurationSeconds: 2, containerType: 'FMP4' },
    { index: 3, type: 'dash', dir: '/srv/dash/r1', segmentDurationSeconds: 2 },
  ];

  /** The argv of each output file: the tee first, then each direct output, split at their URLs. */
  function outputFiles(args: string[]): string[][] {
    const files: string[][] = [];
    let start = args.indexOf('-map');
    args.forEach((arg, i) => {
      if (i > 0 && args[i - 1] !== '-f' && args[i - 2] === '-f') {
        files.push(args.slice(start, i + 1));
        start = i + 1;
      }
    });
    return files;
  }

  it('a relay sends RTMP and MP4-based outputs as outputs of their own, MP4 ones with MP4 tags; MPEG-TS ones stay in the tee', () => {
    const { args } = buildFfmpegArgs(testJob({ outputs }));
    const [tee, rtmp, hls, dash] = outputFiles(args);
    expect(teeSlaves(args).map((s) => s.url)).toEqual(['udp://239.2.2.2:5000?pkt_size=1316']);
    expect(tee.slice(-2, -1)).toEqual(['tee']);
    expect(rtmp).toEqual(['-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-flvflags', 'no_duration_filesize', '-f', 'flv', 'rtmp://live.example.com/app/key']);
    expect(hls).toEqual(expect.arrayContaining(['-tag:v', 'avc1', '-tag:a', 'mp4a', '-bsf:a', 'aac_adtstoasc', '-f', 'hls', '/srv/hls/fmp4/index.m3u8']));
    expect(dash).toEqual(expect.arrayContaining(['-tag:v', 'avc1', '-tag:a', 'mp4a', '-f', 'dash', '/srv/dash/r1/manifest.mpd']));
    expect(dash).not.toContain('-bsf:a');
  });

  it("tags follow the source's codecs, and refuses codecs the container cannot take", () => {
    const hevc = buildFfmpegArgs(testJob({ outputs: [outputs[3]], sourceCodecs: { video: 'hevc', audio: 'ac3' } })).args;
    expect(hevc).toEqual(expect.arrayContaining(['-tag:v', 'hvc1', '-tag:a', 'ac-3']));
    expect(() => buildFfmpegArgs(testJob({ outputs: [outputs[1]], sourceCodecs: { video: 'hevc' } }))).toThrow(/H\.264 video only/);
    expect(() => buildFfmpegArgs(testJob({ outputs: [outputs[3]], sourceCodecs: { video: 'mpeg2video' } }))).toThrow(/cannot go into MP4/);
  });

  it('copied video with encoded audio: the audio is encoded for each direct output', () => {
    const { args } = buildFfmpegArgs(testJob({ outputs: outputs.slice(0, 2), encoding: testEncoding({ video: 'copy' }) }));
    expect(args.filter((a) => a === 'aac')).toHaveLength(2);
    expect(outputFiles(args)[1]).not.toContain('-tag:a');
  });

  it('refuses copied audio beside encoded video for FLV and MP4 outputs, and WebVTT in HLS fMP4 of copied video', () => {
    expect(() => buildFfmpegArgs(testJob({ outputs, encoding: testEncoding({ audio: { tracks: [{ source: 'AUTO', codec: 'copy' }] } }) }))).toThrow(/encode the audio/);
    expect(() =>
      buildFfmpegArgs(testJob({ outputs: [outputs[2]], encoding: testEncoding({ video: 'copy', subtitles: [{ type: 'FILE', source: '/srv/a.srt' }] }) })),
    ).toThrow(/need TS segments/);
  });
});

describe('several outputs', () => {
  it('one tee muxer for all outputs, a failing one ignored, network outputs in their own queues, disabled ones left out', () => {
    const command = buildFfmpegArgs(
      testJob({
        encoding: testEncoding(),
        outputs: [
          { index: 0, type: 'udp', host: '239.2.2.2', port: 5000 },
          { index: 1, type: 'srt', mode: 'caller', host: 'ingest.example.com', port: 9000 },
          { index: 2, type: 'rtmp', url: 'rtmp://live.example.com/app/key', disabled: true },
          { index: 3, type: 'hls', dir: '/srv/hls/e1', segmentDurationSeconds: 2, containerType: 'TS' },
          { index: 4, type: 'tcp', host: '10.0.0.5', port: 7000 },
        ],
      }),
    );
    expect(command.args.filter((a) => a === 'libx264')).toHaveLength(1);
    const slaves = teeSlaves(command.args);
    expect(slaves.map((s) => s.url)).toEqual(['udp://239.2.2.2:5000?pkt_size=1316', 'srt://ingest.example.com:9000', '/srv/hls/e1/index.m3u8', 'tcp://10.0.0.5:7000']);
    expect(slaves.every((s) => s.options.onfail === 'ignore')).toBe(true);
    expect(slaves.map((s) => s.options.use_fifo ?? '0')).toEqual(['0', '1', '0', '1']);
    expect(command.args.join(' ')).not.toContain('live.example.com');
  });

  it('refuses a job whose outputs are all disabled', () => {
    expect(() => buildFfmpegArgs(testJob({ outputs: [{ index: 0, type: 'udp', host: '1.2.3.4', port: 1, disabled: true }] }))).toThrow(/no enabled output/);
  });
});
