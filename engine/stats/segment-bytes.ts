import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The bytes an HLS, DASH or CMAF output has written: the media files in its directory, read by size.
 * ffmpeg reports none for these muxers (they write their own files), so the output's bitrate is the
 * growth of its segments.
 *
 * - Files are told apart by inode (and birth time where the file system keeps one), so a segment
 *   written as `<name>.tmp` and then renamed (HLS temp_file) is counted once, and a segment deleted
 *   from a live playlist takes nothing back.
 * - Playlists and manifests (rewritten in place, they grow and shrink) are left out.
 * - The count moves when a file grows, and the time of that count is the file's modification time:
 *   muxers that write a whole segment at once (fMP4 HLS, DASH, CMAF) are measured from segment to
 *   segment, not by when the directory happened to be read.
 */
const MANIFEST = /\.(m3u8|mpd)(\.tmp)?$/i;

export interface SegmentBytesSample {
  /** Media bytes written so far (since this counter began). */
  bytes: number;
  /** When they were written: the newest modification time among the files that grew (ms since the epoch). */
  at: number;
}

export class SegmentBytes {
  private readonly sizes = new Map<string, number>();
  private total = 0;
  private primed = false;

  constructor(readonly dir: string) {}

  /**
   * Reads the directory: the count and its time when files grew since the last read, undefined when
   * nothing grew (or the directory does not exist yet). The first read only takes stock: what was
   * there before the job started is not its output.
   */
  async read(): Promise<SegmentBytesSample | undefined> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return undefined;
    }
    const seen = new Set<string>();
    let grew = false;
    let newest = 0;
    await Promise.all(
      names
        .filter((name) => !MANIFEST.test(name))
        .map(async (name) => {
          const info = await stat(path.join(this.dir, name)).catch(() => undefined);
          if (!info?.isFile()) return;
          const key = `${info.ino}:${Math.round(info.birthtimeMs)}`;
          seen.add(key);
          const before = this.sizes.get(key);
          this.sizes.set(key, info.size);
          if (!this.primed) return;
          const added = info.size - (before ?? 0);
          if (added > 0) {
            this.total += added;
            grew = true;
            newest = Math.max(newest, info.mtimeMs);
          }
        }),
    );
    for (const key of this.sizes.keys()) if (!seen.has(key)) this.sizes.delete(key);
    this.primed = true;
    return grew ? { bytes: this.total, at: newest } : undefined;
  }
}
