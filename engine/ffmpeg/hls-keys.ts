import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HlsEncryptionSpec, JobSpec } from '../types.ts';
import { assertAbsolutePath, assertPlainText, fail, parseUrl } from './validate.ts';

/**
 * AES-128 keys for HLS. ffmpeg reads `-hls_key_info_file`, a text file of three lines: the URI
 * players fetch the key from (written into EXT-X-KEY), the path of the 16-byte key file, and
 * optionally the IV as 32 hex digits (without it ffmpeg uses each segment's sequence number).
 * The key itself never appears on ffmpeg's command line.
 */

export const HLS_KEY_BYTES = 16;

/** Where the key info file of a key lives when the spec does not say. */
export function hlsKeyInfoPath(encryption: Pick<HlsEncryptionSpec, 'keyFile' | 'keyInfoFile'>): string {
  return encryption.keyInfoFile ?? `${encryption.keyFile}.keyinfo`;
}

/** The key URL as players fetch it: an http(s) URL, or a path on the product's own origin. */
export function assertKeyUrl(keyUrl: unknown, what = 'HLS key URL'): string {
  const text = assertPlainText(keyUrl, what, 2048);
  if (text.startsWith('/') && !text.startsWith('//')) {
    if (/[\s"]/.test(text)) fail(`${what} must not contain spaces or quotes`);
    return text;
  }
  parseUrl(text, ['http', 'https'], what);
  if (text.includes('"')) fail(`${what} must not contain quotes`);
  return text;
}

export function assertIv(iv: unknown, what = 'HLS IV'): string {
  if (typeof iv !== 'string' || !/^(0x)?[0-9a-fA-F]{32}$/.test(iv)) fail(`${what} must be 32 hexadecimal digits`);
  return iv.replace(/^0x/, '').toLowerCase();
}

/** The text of a key info file. */
export function hlsKeyInfoText(encryption: HlsEncryptionSpec): string {
  const lines = [assertKeyUrl(encryption.keyUrl), assertAbsolutePath(encryption.keyFile, 'HLS key file')];
  if (encryption.iv) lines.push(assertIv(encryption.iv));
  return `${lines.join('\n')}\n`;
}

async function writeAtomically(file: string, data: string | Buffer, mode: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, data, { mode });
  await rename(temp, file);
}

/**
 * Make sure the key and its key info file exist: a new random key when the key file is missing
 * (or `rotate` is set), the info file always rewritten from the spec. Returns the key.
 */
export async function writeHlsKeyFiles(encryption: HlsEncryptionSpec, options: { rotate?: boolean } = {}): Promise<{ key: Buffer; keyFile: string; keyInfoFile: string }> {
  const keyFile = assertAbsolutePath(encryption.keyFile, 'HLS key file');
  const keyInfoFile = assertAbsolutePath(hlsKeyInfoPath(encryption), 'HLS key info file');
  let key: Buffer | undefined;
  if (!options.rotate) {
    key = await readFile(keyFile).catch(() => undefined);
    if (key && key.length !== HLS_KEY_BYTES) fail(`HLS key file ${keyFile} holds ${key.length} bytes, not ${HLS_KEY_BYTES}`);
  }
  if (!key) {
    key = randomBytes(HLS_KEY_BYTES);
    await writeAtomically(keyFile, key, 0o600);
  }
  await writeAtomically(keyInfoFile, hlsKeyInfoText(encryption), 0o600);
  return { key, keyFile, keyInfoFile };
}

/** Write the key files of every encrypted HLS output of a job (call before starting it). */
export async function prepareHlsKeys(job: JobSpec): Promise<void> {
  for (const output of job.outputs) {
    if (output.type === 'hls' && !output.disabled && output.encryption) await writeHlsKeyFiles(output.encryption);
  }
}
