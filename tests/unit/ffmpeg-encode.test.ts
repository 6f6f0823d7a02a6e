import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs } from '../../engine/ffmpeg/build-args.ts';
import type { EncodingSpec, OutputSpec, VideoEncodeSpec } from '../../engine/types.ts';
import { teeSlaves, testEncoding, testJob, valueOf, valuesOf } from './ffmpeg-argv.ts';

function argsFor(encoding: Partial<EncodingSpec>, overrides: Parameters<typeof testJob>[0] = {}): string[] {
  return buildFfmpegArgs(testJob({ encoding: testEncoding(encoding), ...overrides })).args;
}

function graphOf(args: string[]): string {
  return valueOf(args, '-filter_complex') ?? '';
}

function videoArgs(video: Partial<VideoEncodeSpec>): string[] {
  return argsFor({ video: { codec: 'libx264', bitrateKbps: 3000, ...video } });
}

const hlsOutput: OutputSpec = { index: 0, type: 'hls', dir: '/srv/hls/e1', segmentDurationSeconds: 2, containerType: 'TS' };

describe('video encoding', () => {
  it('encodes with the preset codec at the bitrate, with maxrate and a two-second buffer, scaled to the size', () => {
    const args = videoArgs({ width: 1280, height: 720, bitrateKbps: 2500 });
    expect(args).toEqual(expect.arrayContaining(['-c:v', 'libx264', '-b:v', '2500k', '-maxrate:v', '2500k', '-bufsize:v', '5000k']));
    expect(graphOf(args)).toBe('[0:v:0]scale=1280:720,format=yuv420p[v0]');
    expect(args).toEqual(expect.arrayContaining(['-map', '[v0]']));
  });

  it('keeps the aspect when only width or height is set, and leaves the size alone when neither is', () => {
    expect(graphOf(videoArgs({ width: 640 }))).toContain('scale=640:-2');
    expect(graphOf(videoArgs({ height: 480 }))).toContain('scale=-2:480');
    expect(graphOf(videoArgs({ width: 0, height: 0 }))).toBe('[0:v:0]format=yuv420p[v0]');
  });

  it('sets the display aspect ratio and the frame rate (NTSC rates as exact fractions)', () => {
    expect(graphOf(videoArgs({ aspectRatio: '16:9', frameRate: 25 }))).toBe('[0:v:0]fps=25,setdar=16/9,format=yuv420p[v0]');
    expect(graphOf(videoArgs({ frameRate: 29.97 }))).toContain('fps=30000/1001');
    expect(() => videoArgs({ aspectRatio: 'wide' })).toThrow(/Aspect ratio/);
    expect(() => videoArgs({ frameRate: 0 })).toThrow(/Frame rate/);
  });

  it.each([
    ['YADIF_FFMPEG', 'AUTO', 'yadif=mode=send_frame:parity=auto:deint=all'],
    ['YADIF_ADAPTIVE_FFMPEG', 'TOP', 'yadif=mode=send_frame:parity=tff:deint=interlaced'],
    ['BWDIF_FFMPEG', 'BOTTOM', 'bwdif=mode=send_frame:parity=bff:deint=all'],
    ['W3FDIF_FFMPEG', undefined, 'w3fdif=mode=frame:parity=auto:deint=all'],
  ] as const)('deinterlaces with %s (field %s) → %s, before scaling', (method, field, filter) => {
    expect(graphOf(videoArgs({ deinterlace: { method, field }, width: 720, height: 576 }))).toBe(`[0:v:0]${filter},scale=720:576,format=yuv420p[v0]`);
  });

  it('a keyInt fixes the GOP (keyint_min, no scene cuts) so ABR segments line up', () => {
    const args = videoArgs({ keyInt: 50 });
    expect(args).toEqual(expect.arrayContaining(['-g:v', '50', '-keyint_min:v', '50', '-sc_threshold:v', '0']));
    expect(valueOf(videoArgs({ codec: 'libx265', keyInt: 50, params: { 'x265-params': 'log-level=error' } }), '-x265-params:v')).toBe('log-level=error:scenecut=0');
  });

  it('without keyInt, segmented outputs get keyframes forced at their segment duration', () => {
    const args = argsFor({ video: { codec: 'libx264', bitrateKbps: 1000 } }, { outputs: [hlsOutput] });
    expect(valueOf(args, '-force_key_frames:v')).toBe('expr:gte(t,n_forced*2)');
    expect(valueOf(argsFor({ video: { codec: 'libx264', bitrateKbps: 1000 } }), '-force_key_frames:v')).toBeUndefined();
  });

  it('passes the preset options as video codec options (true → 1), with their own stream specifier when they have one', () => {
    const args = videoArgs({ params: { preset: 'veryfast', tune: 'zerolatency', 'profile:v': 'high', bf: 0, 'forced-idr': true } });
    expect(args).toEqual(expect.arrayContaining(['-preset:v', 'veryfast', '-tune:v', 'zerolatency', '-profile:v', 'high', '-bf:v', '0', '-forced-idr:v', '1']));
  });

  it('refuses preset options that would change inputs, outputs or filters', () => {
    for (const name of ['i', 'f', 'map', 'filter_complex', 'vf', 'y', 'c:v', 'progress']) {
      expect(() => videoArgs({ params: { [name]: 'x' } }), name).toThrow(/not a codec option|not a valid name/);
    }
    expect(() => videoArgs({ params: { '-i': '/etc/passwd' } })).toThrow(/not a valid name/);
    expect(() => videoArgs({ params: { preset: 'fast\nx' } })).toThrow(/control characters/);
  });

  it.each([
    ['h264_nvenc', 'format=yuv420p', []],
    ['hevc_nvenc', 'format=yuv420p', []],
    ['h264_qsv', 'format=nv12', []],
    ['hevc_vaapi', 'format=nv12,hwupload', ['-vaapi_device', '/dev/dri/renderD128']],
  ])('passes the GPU encoder %s through by name, with the frames it takes', (codec, format, device) => {
    const args = videoArgs({ codec });
    expect(valueOf(args, '-c:v')).toBe(codec);
    expect(graphOf(args)).toContain(format);
    if (device.length) expect(args.slice(args.indexOf('-stats_period') + 2, args.indexOf('-stats_period') + 4)).toEqual(device);
  });

  it('refuses bitrates outside 1 to 999999 kbit/s and odd sizes', () => {
    expect(() => videoArgs({ bitrateKbps: 0 })).toThrow(/1 to 999999/);
    expect(() => videoArgs({ bitrateKbps: 1_000_000 })).toThrow(/1 to 999999/);
    expect(() => videoArgs({ bitrateKbps: 1.5 })).toThrow(/whole number/);
    expect(videoArgs({ bitrateKbps: 999_999 })).toContain('999999k');
    expect(() => videoArgs({ width: 853 })).toThrow(/even/);
  });

  it('copies the video when asked (relayVideo), and refuses a watermark on copied video', () => {
    const args = argsFor({ video: 'copy' });
    expect(args).toEqual(expect.arrayContaining(['-map', '0:v:0?', '-c:v', 'copy']));
    expect(valueOf(args, '-filter_complex')).toBeUndefined();
    expect(() => argsFor({ video: 'copy', watermark: { file: '/srv/logo.png', alpha: 0, width: 10, height: 10, x: 0, y: 0 } })).toThrow(/watermark needs the video encoded/);
  });

  it('noVideo and noSound leave video or audio out; both is refused', () => {
    const noVideo = argsFor({}, { noVideo: true });
    expect(noVideo.join(' ')).not.toMatch(/\[v0\]|-c:v/);
    expect(argsFor({ video: null }).join(' ')).not.toContain('-c:v');
    const noSound = argsFor({}, { noSound: true });
    expect(noSound.join(' ')).not.toContain('-c:a');
    expect(() => argsFor({}, { noVideo: true, noSound: true })).toThrow(/no video and no sound/);
    const relay = buildFfmpegArgs(testJob({ noSound: true })).args;
    expect(valuesOf(relay, '-map')).toEqual(['0:v?']);
  });
});

describe('audio encoding', () => {
  it('AUTO maps the first audio stream if there is one; codec, bitrate, channels and sample rate per stream', () => {
    const args = argsFor({ audio: { tracks: [{ source: 'AUTO', codec: 'aac', bitrateKbps: 128, channels: 2, sampleRate: 48000 }] } });
    expect(args).toEqual(expect.arrayContaining(['-map', '0:a:0?', '-c:a:0', 'aac', '-b:a:0', '128k', '-ac:a:0', '2', '-ar:a:0', '48000']));
  });

  it('ALL maps every audio stream with the same settings', () => {
    const args = argsFor({ audio: { tracks: [{ source: 'ALL', codec: 'mp2', bitrateKbps: 192 }] } });
    expect(args).toEqual(expect.arrayContaining(['-map', '0:a?', '-c:a', 'mp2', '-b:a', '192k']));
  });

  it('indexed tracks map those audio streams, each with its own encoder options', () => {
    const args = argsFor({
      audio: {
        tracks: [
          { source: 1, codec: 'aac', bitrateKbps: 96 },
          { source: 0, codec: 'ac3', bitrateKbps: 384, channels: 6 },
        ],
      },
    });
    expect(valuesOf(args, '-map').slice(1)).toEqual(['0:a:1', '0:a:0']);
    expect(args).toEqual(expect.arrayContaining(['-c:a:0', 'aac', '-b:a:0', '96k', '-c:a:1', 'ac3', '-b:a:1', '384k', '-ac:a:1', '6']));
    expect(() => argsFor({ audio: { tracks: [{ source: 'AUTO', codec: 'aac' }, { source: 1, codec: 'aac' }] } })).toThrow(/only audio track/);
  });

  it('normalizes loudness (EBU R128, back to 48 kHz), sets the volume and delays the audio', () => {
    const args = argsFor({ audio: { normalization: true, volume: 2.5, tracks: [{ source: 'AUTO', codec: 'aac' }] }, delaySeconds: 1.2 });
    expect(valueOf(args, '-filter:a:0')).toBe('loudnorm=I=-23:LRA=7:TP=-2,volume=2.5,adelay=delays=1200:all=1');
    expect(valueOf(args, '-ar:a:0')).toBe('48000');
    const at44 = argsFor({ audio: { normalization: true, tracks: [{ source: 'AUTO', codec: 'aac', sampleRate: 44100 }] } });
    expect(valuesOf(at44, '-ar:a:0')).toEqual(['44100']);
    expect(valueOf(argsFor({ audio: { volume: 1, tracks: [{ source: 'AUTO', codec: 'aac' }] } }), '-filter:a:0')).toBeUndefined();
    expect(valueOf(argsFor({ audio: { volume: 0, tracks: [{ source: 'AUTO', codec: 'aac' }] } }), '-filter:a:0')).toBe('volume=0');
    expect(() => argsFor({ audio: { volume: 10.5, tracks: [{ source: 'AUTO', codec: 'aac' }] } })).toThrow(/0 to 10/);
    expect(() => argsFor({ audio: { tracks: [{ source: 'AUTO', codec: 'aac', bitrateKbps: 0 }] } })).toThrow(/1 to 999999/);
  });

  it('copied audio cannot be filtered or delayed', () => {
    expect(() => argsFor({ audio: { volume: 2, tracks: [{ source: 'AUTO', codec: 'copy' }] } })).toThrow(/need the audio encoded/);
    expect(() => argsFor({ audio: { tracks: [{ source: 'AUTO', codec: 'copy' }] }, delaySeconds: 1 })).toThrow(/delay needs the audio encoded/);
    expect(argsFor({ audio: { tracks: [{ source: 'AUTO', codec: 'copy' }] } })).toEqual(expect.arrayContaining(['-c:a:0', 'copy']));
  });

  it('audio disabled leaves audio out', () => {
    expect(argsFor({ audio: { disabled: true, tracks: [] } }).join(' ')).not.toContain('-c:a');
  });
});

describe('replacements, delay and watermark', () => {
  it('replaces the video with a looped file (read at native rate when LIVE) and ends with the source', () => {
    const args = argsFor({ replaceVideoFile: '/srv/slate.mp4' });
    expect(args.join(' ')).toContain('-stream_loop -1 -re -i file:/srv/slate.mp4');
    expect(graphOf(args).startsWith('[1:v:0]')).toBe(true);
    expect(args).toContain('-shortest');
  });

  it('replaces the audio with a looped file; the delay shifts that file (itsoffset), even when copied', () => {
    const args = argsFor({ replaceAudioFile: '/srv/music.m4a', delaySeconds: 2, audio: { tracks: [{ source: 'AUTO', codec: 'copy' }] } });
    expect(args.join(' ')).toContain('-stream_loop -1 -re -itsoffset 2 -i file:/srv/music.m4a');
    expect(valuesOf(args, '-map')).toContain('1:a:0');
    expect(valueOf(args, '-filter:a:0')).toBeUndefined();
  });

  it('overlays the watermark scaled to its size, with its transparency as alpha, at x/y', () => {
    const args = argsFor({ watermark: { file: '/srv/logo.png', alpha: 25, width: 120, height: 60, x: 20, y: 30 } });
    expect(args.join(' ')).toContain('-i file:/srv/logo.png');
    expect(graphOf(args)).toBe(
      '[0:v:0]scale=1280:720[base];[1:v:0]scale=120:60,format=rgba,colorchannelmixer=aa=0.75[wm];[base][wm]overlay=x=20:y=30:format=auto[marked];[marked]format=yuv420p[v0]',
    );
    expect(() => argsFor({ watermark: { file: '/srv/logo.png', alpha: 101, width: 1, height: 1, x: 0, y: 0 } })).toThrow(/alpha/);
    expect(() => argsFor({ watermark: { file: 'logo.png', alpha: 0, width: 1, height: 1, x: 0, y: 0 } })).toThrow(/absolute path/);
  });
});

describe('ABR', () => {
  const profiles = [
    { width: 1920, height: 1080, videoBitrateKbps: 6000, audioBitrateKbps: 192 },
    { width: 1280, height: 720, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
    { width: 640, height: 360, videoBitrateKbps: 800, audioBitrateKbps: 64 },
  ];

  it('decodes once, scales each profile from the closest larger one, one encoder per profile, audio per profile', () => {
    const args = argsFor({ profiles, video: { codec: 'libx264', bitrateKbps: 1, deinterlace: { method: 'BWDIF_FFMPEG' } } }, { outputs: [hlsOutput] });
    expect(graphOf(args)).toBe(
      '[0:v:0]bwdif=mode=send_frame:parity=auto:deint=all[shared];' +
        '[shared]scale=1920:1080[c0];[c0]split=2[o0][s1];[o0]format=yuv420p[v0];' +
        '[s1]scale=1280:720[c1];[c1]split=2[o1][s2];[o1]format=yuv420p[v1];' +
        '[s2]scale=640:360[c2];[c2]format=yuv420p[v2]',
    );
    expect(valuesOf(args, '-map')).toEqual(['[v0]', '[v1]', '[v2]', '0:a:0?', '0:a:0?', '0:a:0?']);
    expect(args).toEqual(expect.arrayContaining(['-b:v:0', '6000k', '-b:v:1', '3000k', '-b:v:2', '800k', '-b:a:0', '192k', '-b:a:1', '128k', '-b:a:2', '64k']));
  });

  it('HLS gets a master playlist with one variant per profile; DASH and CMAF put every profile in the video set', () => {
    const args = argsFor(
      { profiles },
      {
        outputs: [
          hlsOutput,
          { index: 1, type: 'dash', dir: '/srv/dash/e1', segmentDurationSeconds: 2 },
          { index: 2, type: 'cmaf', dir: '/srv/cmaf/e1', segmentDurationSeconds: 2 },
        ],
      },
    );
    const [hls, dash, cmaf] = teeSlaves(args);
    expect(hls.url).toBe('/srv/hls/e1/stream_%v.m3u8');
    expect(hls.options).toMatchObject({ master_pl_name: 'index.m3u8', var_stream_map: 'v:0,a:0 v:1,a:1 v:2,a:2', hls_segment_filename: '/srv/hls/e1/stream_%v_%05d.ts' });
    expect(dash.options.adaptation_sets).toBe('id=0,streams=v id=1,streams=a');
    expect(cmaf.options.hls_master_name).toBe('master.m3u8');
    // fMP4 containers need the codec headers from the encoders.
    expect(args).toEqual(expect.arrayContaining(['-flags:v', '+global_header', '-flags:a', '+global_header']));
  });

  it('single-rendition outputs carry the main profile (the one marked main, else the first)', () => {
    const udp: OutputSpec = { index: 1, type: 'udp', host: '239.1.1.1', port: 5000 };
    expect(teeSlaves(argsFor({ profiles }, { outputs: [hlsOutput, udp] }))[1].options.select).toBe('v:0,a:0');
    const marked = profiles.map((p, i) => ({ ...p, main: i === 1 }));
    expect(teeSlaves(argsFor({ profiles: marked }, { outputs: [hlsOutput, udp] }))[1].options.select).toBe('v:1,a:1');
  });

  it('with audio not muxed, HLS variants share one audio group', () => {
    const args = argsFor({ profiles: profiles.slice(0, 2), muxAudioAndVideo: false }, { outputs: [hlsOutput] });
    expect(teeSlaves(args)[0].options.var_stream_map).toBe('v:0,agroup:audio v:1,agroup:audio a:0,agroup:audio,default:yes');
    expect(valuesOf(args, '-map')).toEqual(['[v0]', '[v1]', '0:a:0?']);
  });

  it('scales from the largest profile when watermarked, so the watermark is placed in its pixels', () => {
    const graph = graphOf(argsFor({ profiles, watermark: { file: '/srv/logo.png', alpha: 0, width: 100, height: 50, x: 10, y: 10 } }));
    expect(graph).toContain('[0:v:0]scale=1920:1080[canvas];[1:v:0]scale=100:50');
    expect(graph).toContain('[canvas][wm]overlay=x=10:y=10:format=auto[marked];[marked]scale=1920:1080[c0];[c0]split=2[o0][s1]');
  });

  it('scales a profile from the source when no larger one is at least as wide and as high (a portrait beside a landscape)', () => {
    const mixed = [
      { width: 640, height: 360, videoBitrateKbps: 800, audioBitrateKbps: 64 },
      { width: 1280, height: 720, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
      { width: 720, height: 1280, videoBitrateKbps: 3000, audioBitrateKbps: 128 },
    ];
    // 1280x720 and 720x1280 each come from the source; 640x360 from the smallest that holds it (the later of the two).
    expect(graphOf(argsFor({ profiles: mixed }))).toBe(
      '[0:v:0]split=2[s1][s2];' +
        '[s1]scale=1280:720[c1];[c1]format=yuv420p[v1];' +
        '[s2]scale=720:1280[c2];[c2]split=2[o2][s0];[o2]format=yuv420p[v2];' +
        '[s0]scale=640:360[c0];[c0]format=yuv420p[v0]',
    );
  });

  it('refuses impossible ABR specs', () => {
    expect(() => argsFor({ profiles: profiles.slice(0, 1) })).toThrow(/2 to 9 profiles/);
    expect(() => argsFor({ profiles: Array.from({ length: 10 }, () => profiles[2]) })).toThrow(/2 to 9 profiles \(got 10\)/);
    expect(() => argsFor({ profiles, video: 'copy' })).toThrow(/needs the video encoded/);
    expect(() => argsFor({ profiles }, { noVideo: true })).toThrow(/needs video/);
    expect(() => argsFor({ profiles: [profiles[0], { ...profiles[1], videoBitrateKbps: 0 }] })).toThrow(/Profile 2 video bitrate/);
    expect(() => argsFor({ profiles: [profiles[0], { ...profiles[1], width: 641 }] })).toThrow(/even/);
    expect(() => argsFor({ profiles, audio: { tracks: [{ source: 1, codec: 'aac' }, { source: 2, codec: 'aac' }] } })).toThrow(/one audio track/);
  });
});

describe('subtitles', () => {
  it('a subtitle file becomes the WebVTT rendition of HLS (one per variant), with its language', () => {
    const args = argsFor({ subtitles: [{ type: 'FILE', source: '/srv/subs/en.srt', language: 'eng', default: true }] }, { outputs: [hlsOutput], videoType: 'VOD' });
    expect(args.join(' ')).toContain('-i file:/srv/subs/en.srt');
    expect(valuesOf(args, '-map')).toContain('1:s:0');
    expect(args).toEqual(expect.arrayContaining(['-c:s', 'webvtt', '-metadata:s:s:0', 'language=eng']));
    expect(teeSlaves(args)[0].options.var_stream_map).toBe('v:0,a:0,s:0,sgroup:subtitles,language:eng');
  });

  it('a subtitle URL is read over http(s) only', () => {
    const args = argsFor({ subtitles: [{ type: 'URL', source: 'https://cdn.example.com/subs.vtt' }] }, { outputs: [hlsOutput] });
    expect(valuesOf(args, '-i')).toContain('https://cdn.example.com/subs.vtt');
    expect(() => argsFor({ subtitles: [{ type: 'URL', source: 'file:///etc/passwd' }] }, { outputs: [hlsOutput] })).toThrow(/not allowed/);
    expect(() => argsFor({ subtitles: [{ type: 'URL' }] }, { outputs: [hlsOutput] })).toThrow(/needs a value/);
  });

  it('WebVTT stays out of outputs that cannot carry it', () => {
    const args = argsFor(
      { subtitles: [{ type: 'FILE', source: '/srv/subs/en.vtt' }] },
      { outputs: [hlsOutput, { index: 1, type: 'udp', host: '239.1.1.1', port: 5000 }, { index: 2, type: 'dash', dir: '/srv/d', segmentDurationSeconds: 2 }] },
    );
    const [hls, udp, dash] = teeSlaves(args);
    expect(hls.options.select).toBeUndefined();
    expect(udp.options.select).toBe('v,a');
    expect(dash.options.select).toBe('v,a');
    // Without an HLS output the file is not even opened.
    expect(argsFor({ subtitles: [{ type: 'FILE', source: '/srv/subs/en.vtt' }] }).join(' ')).not.toContain('en.vtt');
  });

  it('DVB subtitles are copied to MPEG-TS outputs only', () => {
    const args = argsFor({ subtitles: [{ type: 'DVB' }] }, { outputs: [{ index: 0, type: 'udp', host: '239.1.1.1', port: 5000 }, hlsOutput] });
    expect(args).toEqual(expect.arrayContaining(['-map', '0:s?', '-c:s', 'copy']));
    const [udp, hls] = teeSlaves(args);
    expect(udp.options.select).toBeUndefined();
    expect(hls.options.select).toBe('v,a');
  });

  it('closed captions are kept by the encoder and declared in the HLS master playlist', () => {
    const args = argsFor({ subtitles: [{ type: 'CLOSED_CAPTIONS', language: 'en' }] }, { outputs: [hlsOutput] });
    expect(args).toEqual(expect.arrayContaining(['-a53cc:v', '1']));
    expect(teeSlaves(args)[0].options).toMatchObject({ var_stream_map: 'v:0,a:0,ccgroup:cc', cc_stream_map: 'ccgroup:cc,instreamid:CC1,language:en' });
  });

  it('refuses what the spec forbids or ffmpeg cannot do', () => {
    expect(() => argsFor({ muxAudioAndVideo: true, subtitles: [{ type: 'DVB' }] })).toThrow(/unavailable when Mux audio and video is on/);
    expect(() =>
      argsFor({ subtitles: [{ type: 'FILE', source: '/a.srt', default: true }, { type: 'FILE', source: '/b.srt', default: true }] }, { outputs: [hlsOutput] }),
    ).toThrow(/Only one subtitle may be the default/);
    expect(() => argsFor({ subtitles: [{ type: 'FILE', source: '/a.srt' }, { type: 'DVB' }] })).toThrow(/cannot be combined/);
    expect(() => argsFor({ subtitles: [{ type: 'FILE', source: '/a.ass' }] }, { outputs: [hlsOutput] })).toThrow(/\.srt, \.vtt or \.stl/);
    expect(() => argsFor({ subtitles: [{ type: 'FILE', source: '/a.srt', language: 'en;rm' }] }, { outputs: [hlsOutput] })).toThrow(/language code/);
  });
});
