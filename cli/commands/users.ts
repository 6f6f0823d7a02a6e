import { Option, type Command } from 'commander';
import { unwrap, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine, printView, terminalWidth } from '../output.ts';
import { integer, positiveId, role } from '../parsers.ts';
import { Prompter } from '../prompt.ts';
import { createBody, readBodyFile, updateBody, type UserFlags } from '../user-input.ts';
import { registerCreateAdminCommand } from './create-admin.ts';

interface JsonOption {
  json?: boolean;
}

interface ListOptions extends JsonOption {
  search?: string;
  page?: number;
  size?: number;
  sort?: 'username' | 'id';
  order?: 'asc' | 'desc';
  enabled?: 'true' | 'false';
  role?: 'ADMIN' | 'USER';
}

/** The fields of createUser / updateUser as flags; `--file` gives a whole body (JSON or YAML) under them. */
function userFieldOptions(command: Command, forUpdate: boolean): Command {
  return command
    .option('--username <username>', 'letters, digits and . _ @ - ; max 100 characters')
    .option('--role <role>', 'ADMIN or USER', role)
    .option('--email <email>', 'e-mail address ("" clears it)')
    .option('--phone <number>', 'phone number: optional leading +, digits and hyphens ("" clears it)')
    .option('--password <password>', forUpdate ? 'a new password (the current one is kept when absent)' : 'the password (at least 8 characters; asked when absent)')
    .addOption(new Option('--enabled', 'the user may sign in').conflicts('disabled'))
    .addOption(new Option('--disabled', 'the user may not sign in').conflicts('enabled'))
    .option('--relays-limit <n>', 'Relays limit, 0 to 1000 (0: no limit)', integer)
    .option('--encodings-limit <n>', 'Encodings limit, 0 to 1000 (0: no limit)', integer)
    .option('--timeshift-players-limit <n>', 'Playbacks limit, 0 to 1000 (0: no limit)', integer)
    .option('--timeshift-recorders-limit <n>', 'Recorders limit, 0 to 1000 (0: no limit)', integer)
    .option('--file <path>', 'a JSON or YAML file with the user (the API\'s field names, permissions included); - reads stdin; flags override it')
    .option('--json', 'print the API\'s JSON of the result');
}

function setEnabledCommand(users: Command, enabled: boolean): void {
  const verb = enabled ? 'enable' : 'disable';
  users
    .command(verb)
    .description(enabled ? 'Enable a user (setUserEnabled)' : 'Disable a user (setUserEnabled): its sessions end and its tokens stop working')
    .argument('<id>', 'the user id', positiveId)
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const user = await unwrap(client.PUT('/api/users/{id}/enabled', { params: { path: { id } }, body: { enabled } }));
      if (options.json) return printJson(user);
      printLine(`User ${user.id} ${verb}d.`);
    });
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Users of the console, the CLI and the API');

  users
    .command('list')
    .description('List users (listUsers), sorted by username, with the Total/Active/Failed counts')
    .option('--search <text>', 'username or e-mail (case-insensitive), or an exact ID')
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'users per page, 1 to 500 (default 25)', integer)
    .addOption(new Option('--sort <field>', 'sort by').choices(['username', 'id']))
    .addOption(new Option('--order <order>', 'sort direction').choices(['asc', 'desc']))
    .addOption(new Option('--enabled <flag>', 'only enabled (true) or disabled (false) users').choices(['true', 'false']))
    .option('--role <role>', 'only users of this role: ADMIN or USER', role)
    .option('--json', 'print the API\'s JSON')
    .action(async (options: ListOptions, command: Command) => {
      const { client } = contextOf(command);
      const { json: _json, ...query } = options;
      const page = await unwrap(client.GET('/api/users', { params: { query } }));
      if (options.json) return printJson(page);
      await printView('UserPageView', { page, maxWidth: terminalWidth() });
    });

  users
    .command('get')
    .description('Show a user (getUser)')
    .argument('<id>', 'the user id', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const user = await unwrap(client.GET('/api/users/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(user);
      await printView('UserView', { user });
    });

  userFieldOptions(users.command('create').description('Create a user (createUser) from flags and/or --file'), false).action(
    async (options: UserFlags & JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const file = options.file ? await readBodyFile(options.file) : {};
      const body = createBody(options, file);
      const prompter = new Prompter();
      // Asked on a terminal only: a script gives --password or --file, and the API says what is missing.
      if (body.password === undefined && prompter.interactive) {
        const password = await prompter.askHidden('Password for the new user: ');
        if (password && (await prompter.askHidden('Confirm password: ')) !== password) throw new CliError('VALIDATION_FAILED', 'Passwords do not match');
        if (password) Object.assign(body, { password, confirm: password });
      }
      const user = await unwrap(client.POST('/api/users', { body }));
      if (options.json) return printJson(user);
      printLine(`User ${user.id} created.`);
    },
  );

  userFieldOptions(
    users
      .command('update')
      .description('Change a user (updateUser): only the fields given change')
      .argument('<id>', 'the user id', positiveId),
    true,
  ).action(async (id: number, options: UserFlags & JsonOption, command: Command) => {
    const { client } = contextOf(command);
    const file = options.file ? await readBodyFile(options.file) : {};
    const current: Schemas['User'] = await unwrap(client.GET('/api/users/{id}', { params: { path: { id } } }));
    const user = await unwrap(client.PUT('/api/users/{id}', { params: { path: { id } }, body: updateBody(current, options, file) }));
    if (options.json) return printJson(user);
    printLine(`User ${user.id} updated.`);
  });

  setEnabledCommand(users, true);
  setEnabledCommand(users, false);

  users
    .command('delete')
    .description('Delete a user (deleteUser); asks first unless --yes')
    .argument('<id>', 'the user id', positiveId)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const prompter = new Prompter();
        if (!prompter.interactive) throw new CliError('CONFIRMATION_REQUIRED', `not deleting user ${id} without confirmation: stdin is not a terminal, pass --yes`);
        const user = await unwrap(client.GET('/api/users/{id}', { params: { path: { id } } }));
        const confirmed = await prompter.confirm(`Delete user ${user.username}?`);
        prompter.close();
        if (!confirmed) {
          printLine('Nothing deleted.');
          return;
        }
      }
      const result = await unwrap(client.DELETE('/api/users/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`User ${id} deleted.`);
    });

  registerCreateAdminCommand(users);
}
