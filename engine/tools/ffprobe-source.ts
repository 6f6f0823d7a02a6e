import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { probeInputArgs } from '../probe/media-info.ts';

/**
 * How the media tools hand a user's URL to ffprobe: `-protocol_whitelist` limited to what the
 * URL's scheme needs (so an HLS playlist cannot send ffprobe to file:, concat: or data:), then
 * `-i <url>` with the token appended as engine/probe does it. The URL is one argv entry.
 */

const PROTOCOLS: Record<string, string> = {
  udp: 'udp',
  rtp: 'rtp,udp',
  srt: 'srt',
  rtmp: 'rtmp,tcp',
  rtsp: 'rtsp,rtp,udp,tcp',
  http: 'http,https,tcp,tls,crypto,httpproxy',
  https: 'http,https,tcp,tls,crypto,httpproxy',
  rist: 'rist,udp',
};

export function sourceArgs(uri: string, token?: string): string[] {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1].toLowerCase();
  const whitelist = scheme ? PROTOCOLS[scheme] : undefined;
  if (!whitelist || uri.startsWith('-') || /[\s\0]/.test(uri)) throw new Error(`refusing source ${JSON.stringify(uri)}: not an allowed URL`);
  return ['-protocol_whitelist', whitelist, ...probeInputArgs({ type: 'uri', uri, ...(token ? { token } : {}) })];
}

let stdbuf: string | null | undefined;

/** coreutils' stdbuf, when installed: ffprobe's output to a pipe is then written a line at a time, as it reads. */
function findStdbuf(): string | null {
  if (stdbuf !== undefined) return stdbuf;
  stdbuf = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'stdbuf');
    try {
      accessSync(candidate, constants.X_OK);
      stdbuf = candidate;
      break;
    } catch {
      // not here
    }
  }
  return stdbuf;
}

/** The program and argv that run ffprobe with its output line-buffered (through stdbuf when there is one). */
export function lineBuffered(ffprobe: string, args: string[]): { program: string; args: string[] } {
  const wrapper = findStdbuf();
  return wrapper ? { program: wrapper, args: ['-oL', '-eL', ffprobe, ...args] } : { program: ffprobe, args };
}
