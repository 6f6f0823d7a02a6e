import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** What `mediaplane login` stores: the API it signed in to and the personal API token it made there. */
export interface StoredConfig {
  url?: string;
  token?: string;
}

/**
 * The directory of the stored config: `$MEDIAPLANE_CONFIG_DIR` (tests), else
 * `$XDG_CONFIG_HOME/mediaplane`, else `~/.config/mediaplane`.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MEDIAPLANE_CONFIG_DIR) return path.resolve(env.MEDIAPLANE_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(base, 'mediaplane');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'config.json');
}

/** The stored config; empty when there is none. A file that is not a JSON object is an error, not silently ignored. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): StoredConfig {
  const file = configPath(env);
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it or remove it and sign in again`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} does not hold a JSON object; remove it and sign in again`);
  const { url, token } = parsed as Record<string, unknown>;
  return { ...(typeof url === 'string' ? { url } : {}), ...(typeof token === 'string' ? { token } : {}) };
}

/** Store the config, readable by its owner only (directory 0700, file 0600), whatever the umask. */
export function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configPath(env);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync keeps the mode of a file that existed already
  return file;
}

/** Forget the token; the file goes when nothing is left in it. */
export function removeStoredToken(env: NodeJS.ProcessEnv = process.env): string {
  const { token: _token, ...rest } = readConfig(env);
  const file = configPath(env);
  if (Object.keys(rest).length === 0) rmSync(file, { force: true });
  else writeConfig(rest, env);
  return file;
}
