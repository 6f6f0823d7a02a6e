import type { Command } from 'commander';
import { CliError, printLine } from '../output.ts';
import { withDatabase } from './migrate.ts';

/**
 * `users create-admin`: the way back in when no one can sign in. It does not go through the API
 * (there may be no one to authenticate as): it opens the server's database like `mediaplane server`
 * does (DATABASE_URL, or the embedded Postgres under the data directory) and creates the ADMIN, or
 * resets its password, role and enabled flag and ends its sessions.
 */
export function registerCreateAdminCommand(users: Command): void {
  users
    .command('create-admin')
    .description('Create an ADMIN, or reset its password, directly in the database (no API, no sign-in needed)')
    .option('--username <username>', 'the administrator\'s username', 'admin')
    .option('--password <password>', 'the new password (at least 8 characters); a random one is made and shown once when absent')
    .action(async (options: { username: string; password?: string }) => {
      // The server's modules load only for this command, not at every start of the CLI.
      const [{ migrateUp }, { AdminService }, { UsersRepository }, { SessionsRepository }, { UserCreate }] = await Promise.all([
        import('../../api/db/migrate.ts'),
        import('../../api/services/admin.service.ts'),
        import('../../api/repositories/users.repository.ts'),
        import('../../api/repositories/sessions.repository.ts'),
        import('../../openapi/schemas/users.ts'),
      ]);
      if (options.password !== undefined) {
        // The contract's rules for a username and a password, before touching the database.
        const checked = UserCreate.safeParse({ username: options.username, role: 'ADMIN', password: options.password, confirm: options.password });
        if (!checked.success) {
          const details = checked.error.issues.map((issue) => ({ path: `--${String(issue.path[0])}`, message: issue.message }));
          throw new CliError('VALIDATION_FAILED', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
        }
      }
      const result = await withDatabase(async (db) => {
        for (const line of await migrateUp(db)) console.error(`[mediaplane] ${line}`);
        return new AdminService(new UsersRepository(db), new SessionsRepository(db)).createOrReset(options.username, options.password);
      });
      printLine(result.created ? `Administrator ${result.username} created.` : `Administrator ${result.username} reset: its password is new and its sessions ended.`);
      if (options.password === undefined) {
        printLine('This password is shown only once:');
        printLine(`  username: ${result.username}`);
        printLine(`  password: ${result.password}`);
      }
    });
}
