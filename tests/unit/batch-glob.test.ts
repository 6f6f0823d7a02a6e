import { describe, expect, it } from 'vitest';
import { compileGlob, GlobError, hasGlobPattern, localPathOf, matchRelativePath, segmentRegExp } from '../../engine/batch/glob.ts';

const matches = (pattern: string, relative: string) => matchRelativePath(compileGlob(pattern), relative);

describe('batch glob patterns', () => {
  it('knows a glob pattern when it sees one', () => {
    for (const text of ['/media/in/*.mp4', '/media/in/**/*.mp4', '/media/in/clip?.ts', '/media/in/[abc].mxf']) expect(hasGlobPattern(text)).toBe(true);
    for (const text of ['/media/in/clip.mp4', '/media/in/clip\\*.mp4', 'udp://239.0.0.1:1234']) expect(hasGlobPattern(text)).toBe(false);
  });

  it('splits the pattern at its first glob segment', () => {
    expect(compileGlob('/media/in/**/*.mp4').base).toBe('/media/in');
    expect(compileGlob('/media/in/day-*/*.mp4').base).toBe('/media/in');
    expect(compileGlob('/*.mp4').base).toBe('/');
    expect(() => compileGlob('media/*.mp4')).toThrow(GlobError);
    expect(() => compileGlob('/media/**')).toThrow('The pattern must end with a file name pattern');
  });

  it('matches * and ? within one segment only', () => {
    expect(matches('/in/*.mp4', 'a.mp4')).toBe(true);
    expect(matches('/in/*.mp4', 'sub/a.mp4')).toBe(false);
    expect(matches('/in/*.mp4', 'a.mp4.part')).toBe(false);
    expect(matches('/in/clip?.ts', 'clip1.ts')).toBe(true);
    expect(matches('/in/clip?.ts', 'clip12.ts')).toBe(false);
  });

  it('matches ** across any number of directories, none included', () => {
    for (const relative of ['a.mp4', 'x/a.mp4', 'x/y/z/a.mp4']) expect(matches('/in/**/*.mp4', relative)).toBe(true);
    expect(matches('/in/**/news/*.mp4', 'news/a.mp4')).toBe(true);
    expect(matches('/in/**/news/*.mp4', '2026/11/news/a.mp4')).toBe(true);
    expect(matches('/in/**/news/*.mp4', '2026/sport/a.mp4')).toBe(false);
  });

  it('matches character classes, ranges and negation', () => {
    expect(matches('/in/[abc].ts', 'b.ts')).toBe(true);
    expect(matches('/in/[abc].ts', 'd.ts')).toBe(false);
    expect(matches('/in/cam[0-9].ts', 'cam7.ts')).toBe(true);
    expect(matches('/in/cam[!0-9].ts', 'cam7.ts')).toBe(false);
    expect(matches('/in/cam[^0-9].ts', 'camx.ts')).toBe(true);
    expect(segmentRegExp('[]a]').test(']')).toBe(true);
    expect(segmentRegExp('[\\d]').test('d')).toBe(true);
    expect(segmentRegExp('[\\d]').test('5')).toBe(false);
  });

  it('takes regular-expression characters and escaped glob characters literally', () => {
    expect(segmentRegExp('a+b(1).*').test('a+b(1).mp4')).toBe(true);
    expect(segmentRegExp('a+b(1).*').test('aab(1).mp4')).toBe(false);
    expect(segmentRegExp('what\\?.*').test('what?.ts')).toBe(true);
    expect(segmentRegExp('what\\?.*').test('whatx.ts')).toBe(false);
    expect(segmentRegExp('[z').test('[z')).toBe(true);
  });

  it('leaves hidden files and directories out unless the segment asks for them', () => {
    expect(matches('/in/*.mp4', '.partial.mp4')).toBe(false);
    expect(matches('/in/**/*.mp4', '.trash/a.mp4')).toBe(false);
    expect(matches('/in/.*.mp4', '.partial.mp4')).toBe(true);
  });

  it('accepts only local inputs: an absolute path or a file:// URL', () => {
    expect(localPathOf('/media/in/**/*.mp4')).toBe('/media/in/**/*.mp4');
    expect(localPathOf('file:///media/in/**/*.mp4')).toBe('/media/in/**/*.mp4');
    expect(localPathOf('file:///media/my%20clips/[ab]?.ts')).toBe('/media/my clips/[ab]?.ts');
    for (const uri of ['media/*.mp4', 'udp://239.0.0.1:1234', 'http://host/*.mp4', 'file://host/media/*.mp4']) expect(localPathOf(uri)).toBeNull();
  });
});
