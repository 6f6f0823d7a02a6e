import { Command, CommanderError } from 'commander';
import { PRODUCT_VERSION } from '../openapi/version.ts';
import { registerMigrateCommand } from './commands/migrate.ts';
import { registerServerCommand } from './commands/server.ts';

const program = new Command('mediaplane')
  .description('Mediaplane: the control plane of a media streaming and transcoding platform')
  .version(PRODUCT_VERSION)
  .showHelpAfterError();

registerServerCommand(program);
registerMigrateCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const err = error as { code?: string; message?: string };
  console.error(err.code ? `${err.code}: ${err.message}` : `error: ${err.message ?? String(error)}`);
  process.exit(1);
}
