import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CodecCatalog, codecOptionOf } from '../../api/services/codec-catalog.ts';
import { limitValue, maxChannelsOf, parseEncoderHelp, parseEncoderList } from '../../engine/probe/encoder-help.ts';
import { checkCodecParameters } from '../../openapi/schemas/presets.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/ffmpeg-help/${name}`, import.meta.url), 'utf8');

describe('parseEncoderHelp (recorded `ffmpeg -h encoder=libx264`)', () => {
  const help = parseEncoderHelp(fixture('libx264.txt'));
  const option = (name: string) => help?.options.find((o) => o.name === name);

  it('reads the header and every AVOption', () => {
    expect(help?.name).toBe('libx264');
    expect(help?.longName).toBe('libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10');
    expect(help?.pixelFormats).toContain('yuv420p');
    expect(help?.options).toHaveLength(47);
  });

  it('reads type, help, quoted default and no limits of a string option', () => {
    expect(option('preset')).toEqual({ name: 'preset', type: 'string', help: 'Set the encoding preset (cf. x264 --fullhelp)', default: 'medium', constants: [] });
  });

  it('reads symbolic limits as numbers', () => {
    expect(option('crf')).toMatchObject({ type: 'float', min: -1, max: 3.4028234663852886e38, default: '-1' });
    expect(option('qp')).toMatchObject({ type: 'int', min: -1, max: 2_147_483_647 });
    expect(option('b-bias')).toMatchObject({ min: -2_147_483_648, max: 2_147_483_647, default: 'INT_MIN' });
  });

  it('reads the named values of an option, names with dashes included', () => {
    expect(option('aq-mode')?.constants).toEqual([
      { name: 'none', value: '0', help: '' },
      { name: 'variance', value: '1', help: 'Variance AQ (complexity mask)' },
      { name: 'autovariance', value: '2', help: 'Auto-variance AQ' },
      { name: 'autovariance-biased', value: '3', help: 'Auto-variance AQ with bias to dark scenes' },
    ]);
    expect(option('coder')?.constants.map((c) => c.name)).toEqual(['default', 'cavlc', 'cabac', 'vlc', 'ac']);
  });

  it('reads booleans with "auto" defaults and a dictionary', () => {
    expect(option('psy')).toMatchObject({ type: 'boolean', default: 'auto' });
    expect(option('x264-params')).toMatchObject({ type: 'dictionary', help: 'Override the x264 configuration using a :-separated list of key=value parameters' });
  });

  it('is undefined for an encoder ffmpeg does not know', () => {
    expect(parseEncoderHelp("Codec 'libnothing' is not recognized by FFmpeg.\n")).toBeUndefined();
  });
});

describe('parseEncoderHelp (other recorded encoders)', () => {
  it('reads flags constants without a value (h264_vaapi -sei)', () => {
    const sei = parseEncoderHelp(fixture('h264_vaapi.txt'))?.options.find((o) => o.name === 'sei');
    expect(sei).toMatchObject({ type: 'flags', default: 'identifier+timing+recovery_point' });
    expect(sei?.constants.map((c) => [c.name, c.value])).toEqual([
      ['identifier', undefined],
      ['timing', undefined],
      ['recovery_point', undefined],
    ]);
  });

  it('reads the sample rates of an audio encoder', () => {
    const opus = parseEncoderHelp(fixture('libopus.txt'));
    expect(opus?.sampleRates).toEqual([48000, 24000, 16000, 12000, 8000]);
    expect(opus?.options.find((o) => o.name === 'frame_duration')).toMatchObject({ type: 'float', min: 2.5, max: 120, default: '20' });
  });

  it('counts the channels of layout lists', () => {
    expect(maxChannelsOf('mono stereo')).toBe(2);
    expect(maxChannelsOf('mono stereo 3.0(back) 3.0 quad(side) quad 4.0 5.0(side) 5.0 2 channels (FC+LFE) 2.1 4 channels (FL+FR+LFE+BC) 3.1 4.1 5.1(side) 5.1')).toBe(6);
    expect(limitValue('-FLT_MAX')).toBe(-3.4028234663852886e38);
    expect(limitValue('1e+06')).toBe(1_000_000);
  });
});

describe('parseEncoderList (recorded `ffmpeg -encoders`)', () => {
  it('lists video and audio encoders under the rule', () => {
    const list = parseEncoderList(fixture('encoders.txt'));
    expect(list.find((e) => e.name === 'libx264')).toEqual({ name: 'libx264', type: 'video', description: 'libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)' });
    expect(list.find((e) => e.name === 'libopus')?.type).toBe('audio');
    // The legend above the rule is not an encoder.
    expect(list.some((e) => e.name === '=')).toBe(false);
  });
});

describe('codecOptionOf: what the form shows', () => {
  const x264 = parseEncoderHelp(fixture('libx264.txt'))?.options ?? [];
  const nvenc = parseEncoderHelp(fixture('h264_nvenc.txt'))?.options ?? [];
  const from = (options: typeof x264, name: string) => options.find((o) => o.name === name);

  it('a string option with curated values is a select', () => {
    expect(codecOptionOf({ name: 'preset', label: 'Preset', values: ['fast', 'slow'] }, from(x264, 'preset'))).toEqual({
      name: 'preset',
      label: 'Preset',
      description: 'Set the encoding preset (cf. x264 --fullhelp)',
      default: 'medium',
      type: 'select',
      values: [
        { value: 'fast', label: 'fast' },
        { value: 'slow', label: 'slow' },
      ],
    });
  });

  it('an int option with named values is a select of them, each value once', () => {
    const level = codecOptionOf({ name: 'level', label: 'Level' }, from(nvenc, 'level'));
    expect(level?.type).toBe('select');
    // 1 and 1.0 are both 10: offered once.
    expect(level?.values?.slice(0, 4).map((v) => v.value)).toEqual(['auto', '1', '1b', '1.1']);
    const preset = codecOptionOf({ name: 'preset', label: 'Preset' }, from(nvenc, 'preset'));
    expect(preset?.values?.find((v) => v.value === 'p4')).toEqual({ value: 'p4', label: 'p4 (medium (default))' });
  });

  it('a number is a range within the narrower of ffmpeg\'s and the codec\'s limits', () => {
    expect(codecOptionOf({ name: 'crf', label: 'CRF', min: 0, max: 51, step: 0.5 }, from(x264, 'crf'))).toMatchObject({ type: 'range', min: 0, max: 51, step: 0.5 });
    expect(codecOptionOf({ name: 'qp', label: 'QP', min: 0 }, from(nvenc, 'qp'))).toMatchObject({ type: 'range', min: 0, max: 51, step: 1 });
    expect(codecOptionOf({ name: 'aq-strength', label: 'AQ' }, from(nvenc, 'aq-strength'))).toMatchObject({ type: 'range', min: 1, max: 15 });
  });

  it('a boolean is a checkbox, a dictionary a string, a generic option comes from the curation', () => {
    expect(codecOptionOf({ name: 'forced-idr', label: 'IDR' }, from(x264, 'forced-idr'))).toMatchObject({ type: 'checkbox', default: 'false' });
    expect(codecOptionOf({ name: 'x264-params', label: 'Params' }, from(x264, 'x264-params'))?.type).toBe('string');
    expect(codecOptionOf({ name: 'bf', label: 'B-frames', min: 0, max: 16, step: 1, generic: { type: 'int', help: 'Most B-frames' } }, undefined)).toMatchObject({ type: 'range', min: 0, max: 16, step: 1 });
  });

  it('an option the installed ffmpeg lacks is left out', () => {
    expect(codecOptionOf({ name: 'no-such-option', label: 'Nothing' }, undefined)).toBeUndefined();
  });
});

describe('checkCodecParameters', () => {
  const codec = {
    name: 'libx264',
    options: [
      { name: 'preset', label: 'Preset', description: '', type: 'select' as const, values: [{ value: 'fast', label: 'fast' }] },
      { name: 'crf', label: 'CRF', description: '', type: 'range' as const, min: 0, max: 51, step: 0.5 },
      { name: 'bf', label: 'B-frames', description: '', type: 'range' as const, min: 0, max: 16, step: 1 },
      { name: 'forced-idr', label: 'IDR', description: '', type: 'checkbox' as const },
      { name: 'x264-params', label: 'Params', description: '', type: 'string' as const },
    ],
  };

  it('takes values that fit their options', () => {
    expect(checkCodecParameters(codec, { preset: 'fast', crf: 22.5, bf: 3, 'forced-idr': false, 'x264-params': 'keyint=50' })).toEqual([]);
  });

  it('names the option of each value it refuses', () => {
    expect(checkCodecParameters(codec, { tune: 'film', preset: 'slow', crf: 52, bf: 2.5, 'forced-idr': 1, 'x264-params': 'a\nb' })).toEqual([
      { path: 'videoCodecParameters.tune', message: 'tune is not an option of libx264' },
      { path: 'videoCodecParameters.preset', message: 'Preset must be one of: fast' },
      { path: 'videoCodecParameters.crf', message: 'CRF must be between 0 and 51' },
      { path: 'videoCodecParameters.bf', message: 'B-frames must be a whole number' },
      { path: 'videoCodecParameters.forced-idr', message: 'IDR must be true or false' },
      { path: 'videoCodecParameters.x264-params', message: 'Params must be one line of text' },
    ]);
  });
});

describe('CodecCatalog', () => {
  it('offers only the curated codecs the installed ffmpeg lists, and asks ffmpeg once', async () => {
    const calls: string[][] = [];
    const run = async (args: string[]) => {
      calls.push(args);
      if (args.includes('-encoders')) return fixture('encoders.txt');
      const name = args.at(-1)?.replace('encoder=', '') ?? '';
      return ['libx264', 'h264_nvenc', 'h264_vaapi', 'libopus'].includes(name) ? fixture(`${name}.txt`) : `Encoder ${name} [${name}]:\n`;
    };
    const catalog = new CodecCatalog(run);
    const [first, second] = await Promise.all([catalog.codecs(), catalog.codecs()]);
    expect(second).toBe(first);
    expect(first.video.map((c) => c.name)).toEqual(['libx264', 'libx265', 'h264_nvenc', 'hevc_nvenc', 'h264_qsv', 'hevc_qsv', 'h264_vaapi', 'hevc_vaapi']);
    expect(first.video.find((c) => c.name === 'h264_nvenc')?.gpu).toBe(true);
    expect(calls.filter((args) => args.includes('-encoders'))).toHaveLength(1);
    const opus = await catalog.audioCodec('libopus');
    expect(opus).toMatchObject({ sampleRates: [48000, 24000, 16000, 12000, 8000], maxBitratePerChannel: 256 });
    expect(opus?.options.map((o) => o.name)).toEqual(['application', 'vbr', 'frame_duration', 'packet_loss', 'fec']);
  });

  it('leaves out the GPU encoders an ffmpeg built without them lacks', async () => {
    const cpuOnly = fixture('encoders.txt')
      .split('\n')
      .filter((line) => !/_(nvenc|qsv|vaapi)\b/.test(line))
      .join('\n');
    const catalog = new CodecCatalog(async (args) => (args.includes('-encoders') ? cpuOnly : fixture('libx264.txt')));
    expect((await catalog.codecs()).video.map((c) => c.name)).toEqual(['libx264', 'libx265']);
  });

  it('offers nothing without a working ffmpeg, and asks again next time', async () => {
    const logged: string[] = [];
    let attempts = 0;
    const catalog = new CodecCatalog(async (args) => {
      attempts += 1;
      if (attempts === 1) throw new Error('spawn ffmpeg ENOENT');
      return args.includes('-encoders') ? fixture('encoders.txt') : fixture('libx264.txt');
    }, (line) => logged.push(line));
    await expect(catalog.codecs()).resolves.toEqual({ video: [], audio: [] });
    expect(logged).toEqual(['codec catalog: cannot read the installed ffmpeg: spawn ffmpeg ENOENT']);
    expect((await catalog.codecs()).video.map((c) => c.name)).toContain('libx264');
  });
});
