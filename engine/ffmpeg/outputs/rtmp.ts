import { singleRenditionSelect } from '../streams.ts';
import { assertPlainText, fail, formatUrl, parseUrl } from '../validate.ts';
import { type BuiltOutput, type OutputContext, type OutputOf, slaveOptions } from './common.ts';

/**
 * The `user:password` part of an RTMP URL.
 *
 * ffmpeg's RTMP client takes the credentials from the URL only (no options), splits them at the
 * first `:` and at the last `@` before the path, and does NOT percent-decode them: an encoded
 * `%40` would reach the server as the three characters `%40`. So each character goes in as it is,
 * and the characters that would end the authority (`/ ? #`), split the pair (`:` in a user name)
 * or break the tee syntax beyond its escaping are refused with a clear message instead of being
 * sent wrong. `@` works in a password (the last `@` wins) but not in a user name.
 */
export function rtmpUserInfo(username: string, password: string, what: string): string {
  const user = assertPlainText(username, `${what} username`, 256);
  const pass = assertPlainText(password, `${what} password`, 256);
  if (user === '') fail(`${what}: RTMP credentials need a username`);
  if (pass === '') fail(`${what}: RTMP credentials need a password`);
  if (/[:@/?#\s]/.test(user)) fail(`${what}: an RTMP username cannot contain spaces or any of : @ / ? # (ffmpeg sends it inside the URL)`);
  if (/[/?#\s]/.test(pass)) fail(`${what}: an RTMP password cannot contain spaces or any of / ? # (ffmpeg sends it inside the URL)`);
  return `${user}:${pass}`;
}

/** FLV over RTMP(S) to a server (a CDN ingest, a media server), with Adobe-style credentials when set. */
export function buildRtmpOutput(output: OutputOf<'rtmp'>, ctx: OutputContext): BuiltOutput {
  const what = `Output ${output.index + 1} (RTMP)`;
  const url = parseUrl(output.url, ['rtmp', 'rtmps'], `${what} URL`);
  if (url.userinfo !== undefined) fail(`${what}: put the credentials in the username and password fields, not in the URL`);
  if (url.path.length <= 1) fail(`${what}: the URL needs an application and a stream name (rtmp://host/app/stream)`);
  if (ctx.videoCodec && !/^(libx264|libx264rgb|h264_[a-z0-9_]+)$/.test(ctx.videoCodec)) {
    fail(`${what}: RTMP (FLV) carries H.264 video only in ffmpeg 5.1 (the preset encodes ${ctx.videoCodec})`);
  }
  const withAuth =
    output.username !== undefined || output.password !== undefined
      ? { ...url, userinfo: rtmpUserInfo(output.username ?? '', output.password ?? '', what) }
      : url;
  return {
    slave: {
      options: [...slaveOptions('flv', singleRenditionSelect(ctx.layout, { withDvb: false }), { fifo: ctx.shared }), ['flvflags', 'no_duration_filesize']],
      url: formatUrl(withAuth),
    },
    directories: [],
    usesStdout: false,
    container: 'flv',
  };
}
