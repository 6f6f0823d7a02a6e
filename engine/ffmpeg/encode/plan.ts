import type { JobSpec } from '../../types.ts';
import type { BuiltInput, InputContext } from '../context.ts';
import { emptyLayout, type StreamLayout } from '../streams.ts';
import { assertAbsolutePath, assertNumberRange, fail } from '../validate.ts';
import { abrVideoGraph, mainProfileIndex, singleVideoGraph, validateProfiles } from './abr.ts';
import { audioEncoderArgs, audioFilterArgs, audioFilters, trackSourceSpecifier, validateTracks } from './audio.ts';
import { planSubtitles, subtitleInputArgs, subtitleLanguage } from './subtitles.ts';
import { closedCaptionArgs, gopArgs, hardwareDeviceArgs, presetParamArgs, videoEncoderArgs } from './video.ts';
import { watermarkInputArgs } from './watermark.ts';

/** Everything between the main input and the outputs: extra inputs, the filtergraph, maps and stream options. */
export interface MediaPlan {
  /** Global options needed before any input (a hardware device). */
  preInputArgs: string[];
  /** Inputs after the main one (replacement files, watermark, subtitle files). */
  extraInputArgs: string[];
  filterComplex?: string;
  /** `-map` arguments of the video and audio streams, in output stream order. */
  maps: string[];
  /** `-map` arguments of the subtitle streams, which follow. */
  subtitleMaps: string[];
  /** Codec, rate, filter options of the video and audio streams, and output-wide options. */
  streamArgs: string[];
  /** Codec and metadata options of the subtitle streams. */
  subtitleArgs: string[];
  layout: StreamLayout;
  encodesVideo: boolean;
  encodesAudio: boolean;
  /** Some video or audio is stream-copied from the source (a relay, relayVideo, an audio track with codec copy). */
  copiesVideo: boolean;
  copiesAudio: boolean;
}

export interface PlanContext {
  main: BuiltInput;
  input: InputContext;
  /** Shortest segment duration among segmented outputs (forces keyframes there when the preset has no keyInt). */
  segmentSeconds?: number;
  /** An HLS output exists (the only one that carries WebVTT). */
  hasHls: boolean;
  /** An MPEG-TS output exists (the only kind that carries DVB subtitles). */
  hasTransportStream: boolean;
}

/** A relay: the source's video and audio copied as they are (whatever streams it has). */
export function planRelay(job: JobSpec, ctx: PlanContext): MediaPlan {
  const p = ctx.main.programPrefix;
  if (job.noVideo && job.noSound) fail('A job with no video and no sound has nothing to send');
  const maps: string[] = [];
  const layout = emptyLayout();
  layout.videoCopied = true;
  if (!job.noVideo) {
    maps.push('-map', `0:${p}v?`);
    layout.videoCount = 1;
  }
  if (!job.noSound) {
    maps.push('-map', `0:${p}a?`);
    layout.audioCount = 'open';
  }
  return {
    preInputArgs: [],
    extraInputArgs: [],
    maps,
    subtitleMaps: [],
    streamArgs: ['-c', 'copy'],
    subtitleArgs: [],
    layout,
    encodesVideo: false,
    encodesAudio: false,
    copiesVideo: !job.noVideo,
    copiesAudio: !job.noSound,
  };
}

function loopedFileInput(file: string, what: string, ctx: PlanContext, offsetSeconds?: number): string[] {
  const absolute = assertAbsolutePath(file, what);
  return [
    '-stream_loop',
    '-1',
    ...(ctx.input.videoType === 'LIVE' ? ['-re'] : []),
    ...(offsetSeconds ? ['-itsoffset', String(offsetSeconds)] : []),
    '-i',
    `file:${absolute}`,
  ];
}

/** An encoding: video (encoded, ABR, or copied), audio tracks, watermark, replacements, delay, subtitles. */
export function planEncoding(job: JobSpec, ctx: PlanContext): MediaPlan {
  const enc = job.encoding;
  if (!enc) fail('planEncoding needs an encoding');
  const p = ctx.main.programPrefix;
  const noVideo = Boolean(job.noVideo) || enc.video === null;
  const noAudio = Boolean(job.noSound) || Boolean(enc.audio?.disabled);
  if (noVideo && noAudio) fail('A job with no video and no sound has nothing to send');
  const video = noVideo ? null : enc.video;
  const profiles = enc.profiles && enc.profiles.length > 0 ? enc.profiles : undefined;
  if (profiles && !video) fail('Adaptive bitrate needs video');
  if (profiles && video === 'copy') fail('Adaptive bitrate needs the video encoded; copied video has one size');
  if (enc.watermark && video === 'copy') fail('A watermark needs the video encoded; it cannot be laid on copied video');
  if (profiles) validateProfiles(profiles);
  // Delay time: the sound is delayed against the picture (lip sync; the spec's minimum is 0), with
  // adelay on encoded source audio and -itsoffset on a replacement audio file.
  const delaySeconds = enc.delaySeconds ? assertNumberRange(enc.delaySeconds, 0, 3600, 'Delay time (seconds)') : 0;

  const layout = emptyLayout();
  layout.muxAudioAndVideo = enc.muxAudioAndVideo !== false;
  const preInputArgs: string[] = [];
  const extraInputArgs: string[] = [];
  const graphs: string[] = [];
  const maps: string[] = [];
  const streamArgs: string[] = [];
  const subtitleMaps: string[] = [];
  const subtitleArgs: string[] = [];
  let nextInput = ctx.main.inputCount;

  // Replacement video: a file looped for as long as the job runs, in place of the source's video.
  let videoSource = `0:${p}v:0`;
  if (video && enc.replaceVideoFile) {
    extraInputArgs.push(...loopedFileInput(enc.replaceVideoFile, 'Replace video file', ctx));
    videoSource = `${nextInput++}:v:0`;
  }
  // Replacement audio: the delay shifts the file's timestamps (itsoffset), so even copied audio is delayed.
  let audioInput: number | undefined;
  if (!noAudio && enc.replaceAudioFile) {
    extraInputArgs.push(...loopedFileInput(enc.replaceAudioFile, 'Replace audio file', ctx, delaySeconds));
    audioInput = nextInput++;
  }
  let watermark: { spec: NonNullable<typeof enc.watermark>; inputIndex: number } | undefined;
  if (video && video !== 'copy' && enc.watermark) {
    extraInputArgs.push(...watermarkInputArgs(enc.watermark));
    watermark = { spec: enc.watermark, inputIndex: nextInput++ };
  }
  const subtitles = planSubtitles(enc.subtitles, enc.muxAudioAndVideo);

  // Video.
  if (video === 'copy') {
    maps.push('-map', enc.replaceVideoFile ? videoSource : `${videoSource}?`);
    streamArgs.push('-c:v', 'copy');
    layout.videoCount = 1;
    layout.videoCopied = true;
  } else if (video) {
    preInputArgs.push(...hardwareDeviceArgs(video.codec));
    const graph = profiles ? abrVideoGraph(video, profiles, videoSource, watermark) : singleVideoGraph(video, videoSource, watermark);
    graphs.push(graph.graph);
    for (const label of graph.labels) maps.push('-map', `[${label}]`);
    if (profiles) profiles.forEach((profile, i) => streamArgs.push(...videoEncoderArgs(video, profile.videoBitrateKbps, i)));
    else streamArgs.push(...videoEncoderArgs(video, video.bitrateKbps));
    const gop = gopArgs(video, ctx.segmentSeconds);
    streamArgs.push(...gop.args, ...presetParamArgs(video.params, gop.x265Params));
    if (subtitles.closedCaptions) streamArgs.push(...closedCaptionArgs(video.codec));
    layout.videoCount = graph.labels.length;
    if (profiles) {
      layout.profiles = profiles;
      layout.mainProfile = mainProfileIndex(profiles);
    }
  }

  // Audio.
  if (!noAudio) {
    const tracks = enc.audio.tracks;
    validateTracks(tracks);
    const sourceOf = (source: (typeof tracks)[number]['source']) =>
      audioInput !== undefined ? `${audioInput}:a:0` : `0:${trackSourceSpecifier(source, p)}${source === 'AUTO' ? '?' : ''}`;
    const filters = audioFilters(enc.audio, { delaySeconds: audioInput === undefined ? delaySeconds : 0 });
    const normalized = Boolean(enc.audio.normalization);
    if (delaySeconds && audioInput === undefined && tracks.some((t) => t.codec === 'copy')) {
      fail('A delay needs the audio encoded (or a replacement audio file); copied source audio cannot be delayed');
    }
    if (profiles && layout.muxAudioAndVideo) {
      // Each ABR variant carries its own audio, at its profile's audio bitrate, from the one track.
      if (tracks.length > 1) fail('Adaptive bitrate with audio muxed into each profile takes one audio track');
      const track = tracks[0];
      if (track.source === 'ALL') fail('Adaptive bitrate takes one audio track, not ALL');
      profiles.forEach((profile, i) => {
        maps.push('-map', sourceOf(track.source));
        streamArgs.push(...audioEncoderArgs(track, i, { bitrateKbps: profile.audioBitrateKbps, normalized }), ...audioFilterArgs(filters, i, track));
      });
      layout.audioCount = profiles.length;
      layout.audioPerProfile = true;
    } else if (tracks[0].source === 'ALL') {
      const track = tracks[0];
      maps.push('-map', audioInput !== undefined ? `${audioInput}:a` : `0:${p}a?`);
      streamArgs.push(...audioEncoderArgs(track, undefined, { normalized }), ...audioFilterArgs(filters, undefined, track));
      layout.audioCount = 'open';
    } else {
      tracks.forEach((track, j) => {
        maps.push('-map', sourceOf(track.source));
        streamArgs.push(...audioEncoderArgs(track, j, { normalized }), ...audioFilterArgs(filters, j, track));
      });
      layout.audioCount = tracks.length;
    }
  }

  // Subtitles: one WebVTT stream per video variant for HLS; DVB copied for MPEG-TS outputs.
  if (subtitles.webvtt && ctx.hasHls) {
    extraInputArgs.push(...subtitleInputArgs(subtitles.webvtt));
    const subtitleInput = nextInput++;
    const language = subtitleLanguage(subtitles.webvtt);
    const variants = Math.max(layout.videoCount, 1);
    for (let i = 0; i < variants; i++) {
      subtitleMaps.push('-map', `${subtitleInput}:s:0`);
      if (language) subtitleArgs.push(`-metadata:s:s:${i}`, `language=${language}`);
    }
    subtitleArgs.push('-c:s', 'webvtt');
    layout.webvtt = { language };
  }
  if (subtitles.dvb && ctx.hasTransportStream) {
    subtitleMaps.push('-map', `0:${p}s?`);
    subtitleArgs.push('-c:s', 'copy');
    layout.dvbSubtitles = true;
  }
  if (subtitles.closedCaptions) layout.closedCaptions = { language: subtitleLanguage(subtitles.closedCaptions) };

  // With one of video/audio replaced by a looping file, the job ends when the source does.
  if (Boolean(enc.replaceVideoFile && video) !== Boolean(enc.replaceAudioFile && !noAudio)) streamArgs.push('-shortest');

  return {
    preInputArgs,
    extraInputArgs,
    filterComplex: graphs.length ? graphs.join(';') : undefined,
    maps,
    subtitleMaps,
    streamArgs,
    subtitleArgs,
    layout,
    encodesVideo: Boolean(video && video !== 'copy'),
    encodesAudio: !noAudio && enc.audio.tracks.some((t) => t.codec !== 'copy'),
    copiesVideo: video === 'copy',
    copiesAudio: !noAudio && enc.audio.tracks.some((t) => t.codec === 'copy'),
  };
}
