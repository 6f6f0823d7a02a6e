import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hlsKeyInfoPath, hlsKeyInfoText, prepareHlsKeys, writeHlsKeyFiles } from '../../engine/ffmpeg/hls-keys.ts';
import { testJob } from './ffmpeg-argv.ts';

describe('HLS AES-128 keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mediaplane-hls-keys-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a 16-byte key and the key info file ffmpeg reads: key URL, key file, IV', async () => {
    const encryption = { keyFile: path.join(dir, 'a', 'live.key'), keyUrl: 'https://tv.example.com/keys/live.key', iv: '0x000102030405060708090A0B0C0D0E0F' };
    const { key, keyInfoFile } = await writeHlsKeyFiles(encryption);
    expect(key).toHaveLength(16);
    expect(await readFile(encryption.keyFile)).toEqual(key);
    expect(keyInfoFile).toBe(`${encryption.keyFile}.keyinfo`);
    expect(await readFile(keyInfoFile, 'utf8')).toBe(`https://tv.example.com/keys/live.key\n${encryption.keyFile}\n000102030405060708090a0b0c0d0e0f\n`);
    // Readable by the owner only.
    expect((await stat(encryption.keyFile)).mode & 0o077).toBe(0);
  });

  it('keeps an existing key, makes a new one when asked to rotate', async () => {
    const encryption = { keyFile: path.join(dir, 'b.key'), keyUrl: '/api/keys/b' };
    const first = await writeHlsKeyFiles(encryption);
    expect((await writeHlsKeyFiles(encryption)).key).toEqual(first.key);
    expect((await writeHlsKeyFiles(encryption, { rotate: true })).key).not.toEqual(first.key);
    expect(await readFile(hlsKeyInfoPath(encryption), 'utf8')).toBe(`/api/keys/b\n${encryption.keyFile}\n`);
  });

  it('writes the keys of every encrypted HLS output of a job', async () => {
    const keyFile = path.join(dir, 'job', 'k.key');
    await prepareHlsKeys(
      testJob({ outputs: [{ index: 0, type: 'hls', dir: '/srv/h', segmentDurationSeconds: 2, containerType: 'TS', encryption: { keyFile, keyUrl: '/k', keyInfoFile: path.join(dir, 'job', 'info') } }] }),
    );
    expect(await readFile(keyFile)).toHaveLength(16);
    expect(await readFile(path.join(dir, 'job', 'info'), 'utf8')).toContain(keyFile);
  });

  it('refuses a key URL or IV that would break the key info file or the playlist', () => {
    const keyFile = '/srv/k.key';
    expect(() => hlsKeyInfoText({ keyFile, keyUrl: 'https://a.example.com/k\n/etc/passwd' })).toThrow(/control characters/);
    expect(() => hlsKeyInfoText({ keyFile, keyUrl: 'https://a.example.com/"k' })).toThrow(/quotes/);
    expect(() => hlsKeyInfoText({ keyFile, keyUrl: '//evil.example.com/k' })).toThrow(/not a URL/);
    expect(() => hlsKeyInfoText({ keyFile, keyUrl: '/k', iv: '1234' })).toThrow(/32 hexadecimal/);
    expect(() => hlsKeyInfoText({ keyFile: 'k.key', keyUrl: '/k' })).toThrow(/absolute path/);
  });
});
