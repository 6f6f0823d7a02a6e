import type { Command } from 'commander';
import { unwrap } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { printJson, printLine, printView, terminalWidth } from '../output.ts';
import { positiveId } from '../parsers.ts';

interface JsonOption {
  json?: boolean;
}

export function registerTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description('Your personal API tokens (for the CLI and automation)');

  tokens
    .command('list')
    .description('List your tokens (listTokens)')
    .option('--json', 'print the API\'s JSON')
    .action(async (options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const list = await unwrap(client.GET('/api/tokens'));
      if (options.json) return printJson(list);
      await printView('TokenListView', { tokens: list.items, maxWidth: terminalWidth() });
    });

  tokens
    .command('create')
    .description('Create a token (createToken); its secret is printed this once')
    .argument('<name>', 'a name to recognise it by, e.g. ci@build-server')
    .option('--json', 'print the API\'s JSON (it holds the secret)')
    .action(async (name: string, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const created = await unwrap(client.POST('/api/tokens', { body: { name } }));
      if (options.json) return printJson(created);
      process.stderr.write(`Token ${created.token.id} "${created.token.name}" created. Store its secret now: it will not be shown again.\n`);
      printLine(created.secret);
    });

  tokens
    .command('revoke')
    .description('Revoke one of your tokens (revokeToken); it stops working at once')
    .argument('<id>', 'the token id (see tokens list)', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const result = await unwrap(client.DELETE('/api/tokens/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`Token ${id} revoked.`);
    });
}
