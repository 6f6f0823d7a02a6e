import type { Command } from 'commander';
import { hostname } from 'node:os';
import { ApiError, unwrap, type ApiClient } from '../../openapi/client/index.ts';
import { configPath, readConfig, removeStoredToken, writeConfig } from '../config.ts';
import { DEFAULT_URL, createCliClient, normaliseUrl, resolveTarget, type GlobalOptions } from '../context.ts';
import { CliError, printLine } from '../output.ts';
import { Prompter } from '../prompt.ts';

/** How a token is recognised in GET /api/tokens: the API keeps its first 10 characters. */
export const tokenPrefix = (secret: string) => secret.slice(0, 10);

async function revokeBySecret(client: ApiClient, secret: string): Promise<{ id: number; name: string } | undefined> {
  const { items } = await unwrap(client.GET('/api/tokens'));
  const token = items.find((t) => t.prefix === tokenPrefix(secret));
  if (!token) return undefined;
  await unwrap(client.DELETE('/api/tokens/{id}', { params: { path: { id: token.id } } }));
  return token;
}

export function registerLoginCommands(program: Command): void {
  program
    .command('login')
    .description('Sign in, create a personal API token for this machine and store it for the next commands')
    .option('--username <username>', 'your username (asked when absent)')
    .option('--password <password>', 'your password (asked when absent, without echo; the next line of stdin when it is not a terminal)')
    .action(async (options: { username?: string; password?: string }, command: Command) => {
      const stored = readConfig();
      const { url } = resolveTarget({ url: command.optsWithGlobals<GlobalOptions>().url }, process.env, stored);
      const prompter = new Prompter();
      let username: string | undefined;
      let password: string | undefined;
      try {
        username = options.username ?? (await prompter.ask(`Username for ${url}: `))?.trim();
        if (!username) throw new CliError('VALIDATION_FAILED', 'Username is required');
        password = options.password ?? (await prompter.askHidden('Password: '));
        if (!password) throw new CliError('VALIDATION_FAILED', 'Password is required');
      } finally {
        prompter.close();
      }

      const client = createCliClient({ url }, { keepSession: true });
      const session = await unwrap(client.POST('/api/auth/login', { body: { username, password } }));
      try {
        const name = `cli@${hostname()}`;
        const created = await unwrap(client.POST('/api/tokens', { body: { name } }));
        // The token of an earlier login to this server is not needed any more.
        if (stored.token && stored.url && normaliseUrl(stored.url) === url) await revokeBySecret(client, stored.token).catch(() => undefined);
        const file = writeConfig({ url, token: created.secret });
        printLine(`Signed in to ${url} as ${session.user.username}. Token "${name}" stored in ${file}.`);
      } finally {
        await unwrap(client.POST('/api/auth/logout')).catch(() => undefined);
      }
    });

  program
    .command('logout')
    .description('Revoke the stored token and remove it from the config')
    .action(async () => {
      const stored = readConfig();
      if (!stored.token) {
        printLine(`Not signed in: no token is stored in ${configPath()}.`);
        return;
      }
      const url = normaliseUrl(stored.url ?? DEFAULT_URL);
      try {
        const revoked = await revokeBySecret(createCliClient({ url, token: stored.token }), stored.token);
        removeStoredToken();
        printLine(revoked ? `Token "${revoked.name}" revoked; signed out of ${url}.` : `Signed out of ${url}.`);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        removeStoredToken();
        printLine(`The stored token was no longer valid at ${url}; removed it from ${configPath()}.`);
      }
    });
}
