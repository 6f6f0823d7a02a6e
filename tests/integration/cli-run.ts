import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { TestApp } from '../support/app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'cli/bin.mjs');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The environment one test's CLI runs in: the test app's URL and a config directory of its own. */
export interface CliHome {
  url: string;
  configDir: string;
  configFile: string;
  /** Run `mediaplane <args>` as a child process, the way a user does. */
  run(args: string[], options?: { input?: string; token?: string; env?: Record<string, string> }): Promise<CliResult>;
  remove(): void;
}

export function cliHome(app: TestApp): CliHome {
  const configDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-cli-'));
  return {
    url: app.url,
    configDir,
    configFile: path.join(configDir, 'config.json'),
    async run(args, { input, token, env = {} } = {}) {
      const result = await execa('node', [BIN, ...args], {
        cwd: ROOT,
        reject: false,
        // No token or URL from the developer's shell: only what the test gives.
        env: { MEDIAPLANE_TOKEN: token ?? '', MEDIAPLANE_URL: app.url, MEDIAPLANE_CONFIG_DIR: configDir, DATABASE_URL: '', ...env },
        ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
      });
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
    },
    remove() {
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** A personal API token of this user, made through the API. */
export async function tokenOf(app: TestApp, username: string, password: string): Promise<string> {
  const cookie = await app.signIn(username, password);
  const response = await app.request('/api/tokens', { method: 'POST', cookie, json: { name: 'test' } });
  if (response.status !== 201) throw new Error(`token for ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { secret: string }).secret;
}
