import { createDecipheriv } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFfmpegArgs } from '../../engine/ffmpeg/build-args.ts';
import { writeHlsKeyFiles } from '../../engine/ffmpeg/hls-keys.ts';
import type { InputSpec } from '../../engine/types.ts';
import { makeSubtitleSrt, makeTestMedia, makeWatermarkPng } from '../fixtures/media/lavfi.ts';
import { assertTsPackets, audioOf, ffprobe, firstFrameRgb, job, meanChannel, lightEncoding, runFfmpeg, tempDir, videoOf } from './engine-outputs-support.ts';

/**
 * HLS, DASH and CMAF written by real ffmpeg from the builders' argv, then read back: playlists and
 * manifests by ffprobe, segments decrypted with the key, renditions listed at their sizes.
 */
describe('engine segmented outputs', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let source: InputSpec;

  beforeAll(async () => {
    tmp = await tempDir('segmented-outputs');
    source = { type: 'storage', path: await makeTestMedia(path.join(tmp.dir, 'source.ts'), { seconds: 3 }) };
  });
  afterAll(() => tmp?.remove());

  it('HLS TS, LIVE: a sliding playlist of 2 one-second segments with program date time, older segments deleted', async () => {
    const dir = path.join(tmp.dir, 'hls-live');
    await runFfmpeg(
      buildFfmpegArgs(job(source, [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 1, containerType: 'TS', listSize: 2, programDateTime: true }], { encoding: lightEncoding() })),
    );
    const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
    const segments = playlist.split('\n').filter((line) => line.endsWith('.ts'));
    expect(segments).toHaveLength(2);
    expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    expect(playlist).toContain('#EXT-X-TARGETDURATION:1');
    const onDisk = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
    expect(onDisk.length).toBeLessThanOrEqual(3);
    const probe = await ffprobe(path.join(dir, 'index.m3u8'));
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    expect(audioOf(probe)?.codec_name).toBe('aac');
  });

  it('HLS fMP4, VOD: every segment kept, an init segment, a VOD playlist', async () => {
    const dir = path.join(tmp.dir, 'hls-vod');
    await runFfmpeg(
      buildFfmpegArgs(job(source, [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 1, containerType: 'FMP4', listSize: 2 }], { videoType: 'VOD', encoding: lightEncoding() })),
    );
    const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-MAP:URI="init.mp4"');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    const listed = playlist.split('\n').filter((line) => line.endsWith('.m4s'));
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect((await readdir(dir)).filter((f) => f.endsWith('.m4s')).sort()).toEqual([...listed].sort());
    const probe = await ffprobe(path.join(dir, 'index.m3u8'));
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
  });

  it('HLS AES-128: a segment decrypted with the key and the playlist IV is MPEG-TS', async () => {
    const dir = path.join(tmp.dir, 'hls-aes');
    const encryption = { keyFile: path.join(tmp.dir, 'keys', 'aes.key'), keyUrl: 'https://media.example.com/keys/aes.key', iv: '000102030405060708090a0b0c0d0e0f' };
    const { key } = await writeHlsKeyFiles(encryption);
    await runFfmpeg(
      buildFfmpegArgs(job(source, [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 1, containerType: 'TS', encryption }], { videoType: 'VOD', encoding: lightEncoding() })),
    );
    const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
    const keyLine = playlist.split('\n').find((line) => line.startsWith('#EXT-X-KEY:'));
    expect(keyLine).toContain('METHOD=AES-128');
    expect(keyLine).toContain(`URI="${encryption.keyUrl}"`);
    const iv = /IV=0x([0-9a-fA-F]{32})/.exec(keyLine ?? '')?.[1];
    expect(iv?.toLowerCase()).toBe(encryption.iv);
    const firstSegment = playlist.split('\n').find((line) => line.endsWith('.ts'))!;
    const encrypted = await readFile(path.join(dir, firstSegment));
    // Encrypted, the segment is not TS ...
    expect(encrypted[0] === 0x47 && encrypted[188] === 0x47).toBe(false);
    // ... decrypted, it is.
    const decipher = createDecipheriv('aes-128-cbc', key, Buffer.from(iv!, 'hex'));
    const clear = Buffer.concat([decipher.update(encrypted), decipher.final()]);
    expect(assertTsPackets(clear)).toBeGreaterThan(10);
  });

  it('DASH: ffprobe reads the manifest, video and audio in their own adaptation sets', async () => {
    const dir = path.join(tmp.dir, 'dash');
    await runFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'dash', dir, segmentDurationSeconds: 1 }], { videoType: 'VOD', encoding: lightEncoding() })));
    const manifest = await readFile(path.join(dir, 'manifest.mpd'), 'utf8');
    expect(manifest.match(/<AdaptationSet/g)).toHaveLength(2);
    const probe = await ffprobe(path.join(dir, 'manifest.mpd'));
    expect(probe.format?.format_name).toBe('dash');
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    expect(audioOf(probe)?.codec_name).toBe('aac');
  });

  it('CMAF: one set of fMP4 segments behind a DASH manifest and an HLS master playlist', async () => {
    const dir = path.join(tmp.dir, 'cmaf');
    await runFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'cmaf', dir, segmentDurationSeconds: 1 }], { videoType: 'VOD', encoding: lightEncoding() })));
    const files = await readdir(dir);
    expect(files).toEqual(expect.arrayContaining(['manifest.mpd', 'master.m3u8']));
    expect(files.some((f) => f.endsWith('.m4s'))).toBe(true);
    const master = await readFile(path.join(dir, 'master.m3u8'), 'utf8');
    expect(master).toContain('RESOLUTION=320x180');
    for (const entry of ['manifest.mpd', 'master.m3u8']) {
      const probe = await ffprobe(path.join(dir, entry));
      expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320 });
      expect(audioOf(probe)?.codec_name).toBe('aac');
    }
  });

  it('a relay copies the source into HLS fMP4, DASH and CMAF beside HLS TS', async () => {
    const dirs = ['relay-hls-fmp4', 'relay-dash', 'relay-cmaf', 'relay-hls-ts'].map((d) => path.join(tmp.dir, d));
    await runFfmpeg(
      buildFfmpegArgs(
        job(
          source,
          [
            { index: 0, type: 'hls', dir: dirs[0], segmentDurationSeconds: 1, containerType: 'FMP4' },
            { index: 1, type: 'dash', dir: dirs[1], segmentDurationSeconds: 1 },
            { index: 2, type: 'cmaf', dir: dirs[2], segmentDurationSeconds: 1 },
            { index: 3, type: 'hls', dir: dirs[3], segmentDurationSeconds: 1, containerType: 'TS' },
          ],
          { videoType: 'VOD' },
        ),
      ),
    );
    const entries = [path.join(dirs[0], 'index.m3u8'), path.join(dirs[1], 'manifest.mpd'), path.join(dirs[2], 'master.m3u8'), path.join(dirs[3], 'index.m3u8')];
    for (const entry of entries) {
      const probe = await ffprobe(entry);
      // The source's own 640x360 picture, not re-encoded.
      expect(videoOf(probe), entry).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
      expect(audioOf(probe)?.codec_name, entry).toBe('aac');
    }
  });

  it('ABR: three profiles from one decode, an HLS master listing them at their sizes and a DASH manifest beside it', async () => {
    const hlsDir = path.join(tmp.dir, 'abr-hls');
    const dashDir = path.join(tmp.dir, 'abr-dash');
    const command = buildFfmpegArgs(
      job(
        source,
        [
          { index: 0, type: 'hls', dir: hlsDir, segmentDurationSeconds: 1, containerType: 'TS' },
          { index: 1, type: 'dash', dir: dashDir, segmentDurationSeconds: 1 },
        ],
        {
          videoType: 'VOD',
          encoding: lightEncoding({
            video: { codec: 'libx264', bitrateKbps: 1000, keyInt: 25, params: { preset: 'ultrafast' } },
            profiles: [
              { width: 1280, height: 720, videoBitrateKbps: 1200, audioBitrateKbps: 96 },
              { width: 640, height: 360, videoBitrateKbps: 600, audioBitrateKbps: 64 },
              { width: 320, height: 180, videoBitrateKbps: 250, audioBitrateKbps: 48 },
            ],
          }),
        },
      ),
    );
    // One decoded picture, each profile scaled from the next larger one (a cascade of splits).
    const graph = command.args[command.args.indexOf('-filter_complex') + 1];
    expect(graph.match(/\[0:v:0\]/g)).toHaveLength(1);
    expect(graph).toContain('[c0]split=2[o0][s1]');
    expect(graph).toContain('[c1]split=2[o1][s2]');
    await runFfmpeg(command, 40_000);
    const master = await readFile(path.join(hlsDir, 'index.m3u8'), 'utf8');
    const resolutions = [...master.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((m) => m[1]);
    expect(resolutions).toEqual(['1280x720', '640x360', '320x180']);
    for (let i = 0; i < 3; i++) {
      const variant = await ffprobe(path.join(hlsDir, `stream_${i}.m3u8`));
      expect(`${videoOf(variant)?.width}x${videoOf(variant)?.height}`).toBe(resolutions[i]);
      expect(audioOf(variant)?.codec_name).toBe('aac');
    }
    const manifest = await readFile(path.join(dashDir, 'manifest.mpd'), 'utf8');
    expect([...manifest.matchAll(/width="(\d+)" height="(\d+)"/g)].map((m) => `${m[1]}x${m[2]}`)).toEqual(['1280x720', '640x360', '320x180']);
  });

  it('an encode with every picture and sound option: ffmpeg accepts the graph and the result has the asked-for properties', async () => {
    const dir = path.join(tmp.dir, 'hls-options');
    const tone = await makeTestMedia(path.join(tmp.dir, 'tone.ts'), { seconds: 1, width: 160, height: 90 });
    await runFfmpeg(
      buildFfmpegArgs(
        job(source, [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 1, containerType: 'TS' }], {
          videoType: 'VOD',
          encoding: {
            video: {
              codec: 'libx264',
              bitrateKbps: 500,
              width: 320,
              height: 240,
              aspectRatio: '4:3',
              frameRate: 30,
              keyInt: 30,
              deinterlace: { method: 'YADIF_ADAPTIVE_FFMPEG', field: 'TOP' },
              params: { preset: 'ultrafast', tune: 'zerolatency', 'profile:v': 'main' },
            },
            audio: { normalization: true, volume: 1.5, tracks: [{ source: 'AUTO', codec: 'aac', bitrateKbps: 48, channels: 1, sampleRate: 44100 }] },
            // A 1 s file looped in place of the source's sound, 0.5 s late; the job ends with the source.
            replaceAudioFile: tone,
            delaySeconds: 0.5,
          },
        }),
      ),
    );
    const probe = await ffprobe(path.join(dir, 'index.m3u8'));
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 240, display_aspect_ratio: '4:3', avg_frame_rate: '30/1' });
    expect(audioOf(probe)).toMatchObject({ codec_name: 'aac', channels: 1, sample_rate: '44100' });
    const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-ENDLIST');
  });

  it('copied video with every source audio track normalized and encoded to Opus, in DASH', async () => {
    const dir = path.join(tmp.dir, 'dash-copy-opus');
    await runFfmpeg(
      buildFfmpegArgs(
        job(source, [{ index: 0, type: 'dash', dir, segmentDurationSeconds: 1 }], {
          videoType: 'VOD',
          encoding: { video: 'copy', audio: { normalization: true, volume: 0.5, tracks: [{ source: 'ALL', codec: 'libopus', bitrateKbps: 64 }] } },
        }),
      ),
    );
    const probe = await ffprobe(path.join(dir, 'manifest.mpd'));
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(audioOf(probe)).toMatchObject({ codec_name: 'opus', sample_rate: '48000' });
  });

  it('HLS with a watermark and a subtitle file: a WebVTT rendition in the master playlist', async () => {
    const dir = path.join(tmp.dir, 'hls-subs');
    const watermark = await makeWatermarkPng(path.join(tmp.dir, 'logo.png'));
    const subtitle = await makeSubtitleSrt(path.join(tmp.dir, 'subs.srt'), 3);
    await runFfmpeg(
      buildFfmpegArgs(
        job(source, [{ index: 0, type: 'hls', dir, segmentDurationSeconds: 1, containerType: 'TS' }], {
          videoType: 'VOD',
          encoding: lightEncoding({
            watermark: { file: watermark, alpha: 30, width: 64, height: 32, x: 10, y: 10 },
            subtitles: [{ type: 'FILE', source: subtitle, language: 'eng', default: true }],
          }),
        }),
      ),
    );
    const master = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
    expect(master).toMatch(/#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subtitles".*LANGUAGE="eng"/);
    expect(master).toContain('SUBTITLES="subtitles"');
    const subtitles = await readFile(path.join(dir, 'stream_0_vtt.m3u8'), 'utf8');
    const firstCue = subtitles.split('\n').find((line) => line.endsWith('.vtt'))!;
    expect(await readFile(path.join(dir, firstCue), 'utf8')).toContain('WEBVTT');
    expect(videoOf(await ffprobe(path.join(dir, 'stream_0.m3u8')))).toMatchObject({ codec_name: 'h264', width: 320 });
    // The red box is on the picture where it was placed, and nowhere else.
    const marked = await firstFrameRgb(path.join(dir, 'stream_0.m3u8'));
    const plainDir = path.join(tmp.dir, 'hls-plain');
    await runFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'hls', dir: plainDir, segmentDurationSeconds: 1, containerType: 'TS' }], { videoType: 'VOD', encoding: lightEncoding() })));
    const plain = await firstFrameRgb(path.join(plainDir, 'index.m3u8'));
    const inside = { x: 20, y: 15, w: 40, h: 20 };
    const outside = { x: 200, y: 100, w: 100, h: 60 };
    // Distance from pure red (255, 0, 0), summed over the channels.
    const fromRed = (rgb: Buffer, box: typeof inside) => 255 - meanChannel(rgb, 320, box, 0) + meanChannel(rgb, 320, box, 1) + meanChannel(rgb, 320, box, 2);
    expect(fromRed(plain, inside) - fromRed(marked, inside)).toBeGreaterThan(40);
    expect(Math.abs(fromRed(plain, outside) - fromRed(marked, outside))).toBeLessThan(15);
  });
});
