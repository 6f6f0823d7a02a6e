import type { AudioTrackSpec, EncodingSpec } from '../../types.ts';
import { assertBitrateKbps, assertIntegerRange, assertName, assertNumberRange, fail } from '../validate.ts';

/** EBU R128 broadcast loudness: -23 LUFS integrated, 7 LU range, -2 dBTP peak. */
export const LOUDNORM = 'loudnorm=I=-23:LRA=7:TP=-2';
export const DEFAULT_SAMPLE_RATE = 48_000;

/** The stream specifier (after the input index) of a track's source audio. */
export function trackSourceSpecifier(source: AudioTrackSpec['source'], programPrefix: string): string {
  if (source === 'AUTO') return `${programPrefix}a:0`;
  if (source === 'ALL') return `${programPrefix}a`;
  return `${programPrefix}a:${assertIntegerRange(source, 0, 63, 'Audio track source index')}`;
}

/**
 * The filters of one encoded audio stream, in order: loudness normalization, volume (0 to 10,
 * 1 = unchanged) and the delay (adelay, in milliseconds, on every channel).
 *
 * loudnorm hands out 192 kHz audio; it is brought back by the encoder's `-ar` (see
 * `audioEncoderArgs`), not by an aresample in the chain: in ffmpeg 5.1 an aresample after loudnorm
 * fails to pick a channel layout when the graph is reconfigured on the first decoded frame.
 */
export function audioFilters(audio: EncodingSpec['audio'], options: { delaySeconds?: number }): string[] {
  const filters: string[] = [];
  if (audio.normalization) filters.push(LOUDNORM);
  if (audio.volume !== undefined) {
    const volume = assertNumberRange(audio.volume, 0, 10, 'Audio volume');
    if (volume !== 1) filters.push(`volume=${Math.round(volume * 100) / 100}`);
  }
  if (options.delaySeconds) filters.push(`adelay=delays=${Math.round(options.delaySeconds * 1000)}:all=1`);
  return filters;
}

/**
 * Encoder options of one audio output stream (`index` undefined: every audio stream, for ALL).
 * `bitrateKbps` overrides the track's (ABR profiles carry their own audio bitrate). Normalized
 * audio is always given a sample rate (the track's, else 48 kHz).
 */
export function audioEncoderArgs(track: AudioTrackSpec, index: number | undefined, options: { bitrateKbps?: number; normalized?: boolean } = {}): string[] {
  const s = index === undefined ? ':a' : `:a:${index}`;
  const codec = assertName(track.codec, 'Audio codec');
  if (codec === 'copy') return [`-c${s}`, 'copy'];
  const args = [`-c${s}`, codec];
  const kbps = options.bitrateKbps ?? track.bitrateKbps;
  if (kbps !== undefined) args.push(`-b${s}`, `${assertBitrateKbps(kbps, 'Audio bitrate')}k`);
  if (track.channels !== undefined) args.push(`-ac${s}`, String(assertIntegerRange(track.channels, 1, 8, 'Audio channels')));
  if (track.sampleRate !== undefined) args.push(`-ar${s}`, String(assertIntegerRange(track.sampleRate, 8000, 192_000, 'Audio sample rate')));
  else if (options.normalized) args.push(`-ar${s}`, String(DEFAULT_SAMPLE_RATE));
  return args;
}

/** A filter chain on one audio output stream (a simple filtergraph, so a missing optional source stream is no error). */
export function audioFilterArgs(filters: string[], index: number | undefined, track: AudioTrackSpec): string[] {
  if (filters.length === 0) return [];
  if (track.codec === 'copy') fail('Audio normalization, volume and delay need the audio encoded, not copied');
  return [`-filter${index === undefined ? ':a' : `:a:${index}`}`, filters.join(',')];
}

export function validateTracks(tracks: AudioTrackSpec[]): void {
  if (!Array.isArray(tracks) || tracks.length === 0) fail('Audio needs at least one track (or audio disabled)');
  const open = tracks.filter((t) => t.source === 'AUTO' || t.source === 'ALL');
  if (open.length > 0 && tracks.length > 1) fail('An AUTO or ALL audio track must be the only audio track');
}
