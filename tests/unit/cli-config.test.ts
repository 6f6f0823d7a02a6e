import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, configPath, readConfig, removeStoredToken, writeConfig } from '../../cli/config.ts';
import { DEFAULT_URL, resolveTarget } from '../../cli/context.ts';

describe('the stored config of the CLI', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-config-'));
    env = { MEDIAPLANE_CONFIG_DIR: path.join(dir, 'mediaplane') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives under XDG_CONFIG_HOME, else ~/.config, unless MEDIAPLANE_CONFIG_DIR names a directory', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/mediaplane');
    expect(configDir({})).toBe(path.join(homedir(), '.config', 'mediaplane'));
    expect(configDir({ XDG_CONFIG_HOME: 'relative' })).toBe(path.join(homedir(), '.config', 'mediaplane'));
    expect(configPath({ MEDIAPLANE_CONFIG_DIR: '/tmp/x', XDG_CONFIG_HOME: '/xdg' })).toBe('/tmp/x/config.json');
  });

  it('is written readable by its owner only, even over a file that was not', () => {
    writeConfig({ url: 'http://a' }, env);
    const file = configPath(env);
    writeFileSync(file, '{}', { mode: 0o644 });
    writeConfig({ url: 'http://a', token: 'mp_secret' }, env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir(env)).mode & 0o777).toBe(0o700);
    expect(readConfig(env)).toEqual({ url: 'http://a', token: 'mp_secret' });
  });

  it('is empty when absent, and refuses a file that is not a JSON object', () => {
    expect(readConfig(env)).toEqual({});
    writeConfig({}, env);
    writeFileSync(configPath(env), '[1]');
    expect(() => readConfig(env)).toThrow(/does not hold a JSON object/);
  });

  it('forgets the token but keeps the URL on logout', () => {
    writeConfig({ url: 'http://a', token: 'mp_secret' }, env);
    removeStoredToken(env);
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual({ url: 'http://a' });
  });
});

describe('resolveTarget', () => {
  const stored = { url: 'http://stored:8080/', token: 'mp_stored' };

  it('takes --url and --token first, then the environment, then the stored config, then localhost:8080', () => {
    expect(resolveTarget({ url: 'http://flag/', token: 'mp_flag' }, { MEDIAPLANE_URL: 'http://env', MEDIAPLANE_TOKEN: 'mp_env' }, stored)).toEqual({ url: 'http://flag', token: 'mp_flag' });
    expect(resolveTarget({}, { MEDIAPLANE_URL: 'http://env', MEDIAPLANE_TOKEN: 'mp_env' }, stored)).toEqual({ url: 'http://env', token: 'mp_env' });
    expect(resolveTarget({}, {}, stored)).toEqual({ url: 'http://stored:8080', token: 'mp_stored' });
    expect(resolveTarget({}, {}, {})).toEqual({ url: DEFAULT_URL });
  });

  it('sends the stored token only to the URL it was made for', () => {
    expect(resolveTarget({ url: 'http://elsewhere' }, {}, stored)).toEqual({ url: 'http://elsewhere' });
    expect(resolveTarget({}, { MEDIAPLANE_URL: 'http://stored:8080' }, stored)).toEqual({ url: 'http://stored:8080', token: 'mp_stored' });
  });

  it('refuses a URL that is not http or https', () => {
    expect(() => resolveTarget({ url: 'ftp://host' }, {}, {})).toThrow(/http or https/);
    expect(() => resolveTarget({ url: 'localhost' }, {}, {})).toThrow(/must be an http\(s\) URL/);
  });
});
