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
      const [{ configFromEnv }, { migrateUp }, { EventBus }, { createServices }, { UserCreate }] = await Promise.all([
        import('../../api/config.ts'),
        import('../../api/db/migrate.ts'),
        import('../../api/events/event-bus.ts'),
        import('../../api/services/index.ts'),
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
      const config = configFromEnv();
      const result = await withDatabase(async (db, url) => {
        for (const line of await migrateUp(db)) console.error(`[mediaplane] ${line}`);
        // The event bus is never started: resetting an admin publishes no live event.
        const services = createServices(db, new EventBus(url, db), {
          devMode: config.devMode,
          auth: { sessionIdleMinutes: config.sessionIdleMinutes, sessionMaxHours: config.sessionMaxHours },
        });
        return services.admin.createOrReset(options.username, options.password);
      });
      printLine(result.created ? `Administrator ${result.username} created.` : `Administrator ${result.username} reset: its password is new and its sessions ended.`);
      if (options.password === undefined) {
        printLine('This password is shown only once:');
        printLine(`  username: ${result.username}`);
        printLine(`  password: ${result.password}`);
      }
    });
}
