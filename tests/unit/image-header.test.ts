import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../engine/probe/image-header.ts';

/** The first bytes of each format, as their specifications lay them out. */
function pngHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

function gifHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** SOI, an APP0 segment to skip, then SOF2 (progressive). */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc2, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

function webpHeader(chunk: 'VP8X' | 'VP8 ' | 'VP8L', width: number, height: number): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBP', 8, 'latin1');
  bytes.write(chunk, 12, 'latin1');
  if (chunk === 'VP8X') {
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
  } else if (chunk === 'VP8 ') {
    bytes.set([0x9d, 0x01, 0x2a], 23);
    bytes.writeUInt16LE(width, 26);
    bytes.writeUInt16LE(height, 28);
  } else {
    bytes[20] = 0x2f;
    bytes.writeUInt32LE(((height - 1) << 14) | (width - 1), 21);
  }
  return bytes;
}

describe('readImageHeader', () => {
  it('reads PNG, GIF, JPEG and the three kinds of WebP', () => {
    expect(readImageHeader(pngHeader(64, 32))).toEqual({ format: 'png', width: 64, height: 32 });
    expect(readImageHeader(gifHeader(320, 240))).toEqual({ format: 'gif', width: 320, height: 240 });
    expect(readImageHeader(jpegHeader(1920, 1080))).toEqual({ format: 'jpeg', width: 1920, height: 1080 });
    expect(readImageHeader(webpHeader('VP8X', 500, 400))).toEqual({ format: 'webp', width: 500, height: 400 });
    expect(readImageHeader(webpHeader('VP8 ', 100, 60))).toEqual({ format: 'webp', width: 100, height: 60 });
    expect(readImageHeader(webpHeader('VP8L', 77, 33))).toEqual({ format: 'webp', width: 77, height: 33 });
  });

  it('refuses anything else, a truncated header and a zero size', () => {
    expect(readImageHeader(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(readImageHeader(Buffer.from('BM6\0\0\0'))).toBeUndefined();
    expect(readImageHeader(pngHeader(64, 32).subarray(0, 20))).toBeUndefined();
    expect(readImageHeader(jpegHeader(10, 10).subarray(0, 24))).toBeUndefined();
    expect(readImageHeader(pngHeader(0, 32))).toBeUndefined();
    expect(readImageHeader(Buffer.alloc(0))).toBeUndefined();
  });
});
