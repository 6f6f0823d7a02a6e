import { Command, CommanderError } from 'commander';
import { PRODUCT_VERSION } from '../openapi/version.ts';
import { registerAgentCommand } from './commands/agent.ts';
import { registerEndpointCommands } from './commands/job-insights.ts';
import { registerJobCommands } from './commands/jobs.ts';
import { registerLoginCommands } from './commands/login.ts';
import { registerMigrateCommand } from './commands/migrate.ts';
import { registerPresetCommands } from './commands/presets.ts';
import { registerServerCommand } from './commands/server.ts';
import { registerTemplateCommands } from './commands/templates.ts';
import { registerTimerCommands } from './commands/timers.ts';
import { registerAlarmCommands } from './commands/alarms.ts';
import { registerTokenCommands } from './commands/tokens.ts';
import { registerToolCommands } from './commands/tools.ts';
import { registerTopCommand } from './commands/top.ts';
import { registerDashboardCommand } from './commands/dashboard.ts';
import { registerDiagnosticsCommand } from './commands/diagnostics.ts';
import { registerStatsCommands } from './commands/stats.ts';
import { registerSettingsCommands } from './commands/settings.ts';
import { registerUserCommands } from './commands/users.ts';
import { registerWatermarkCommands } from './commands/watermarks.ts';
import { printError } from './output.ts';

const program = new Command('mediaplane')
  .description('Mediaplane: the control plane of a media streaming and transcoding platform')
  .version(PRODUCT_VERSION)
  .option('--url <url>', 'the API to talk to (env MEDIAPLANE_URL, then the one you signed in to, then http://localhost:8080)')
  .option('--token <token>', 'a personal API token (env MEDIAPLANE_TOKEN, then the one `mediaplane login` stored)')
  .showHelpAfterError();

registerServerCommand(program);
registerAgentCommand(program);
registerMigrateCommand(program);
registerLoginCommands(program);
registerTokenCommands(program);
registerUserCommands(program);
registerJobCommands(program, 'relay');
registerJobCommands(program, 'encoding');
registerEndpointCommands(program);
registerTemplateCommands(program);
registerPresetCommands(program);
registerWatermarkCommands(program);
registerToolCommands(program);
registerTimerCommands(program);
registerAlarmCommands(program);
registerTopCommand(program);
registerDashboardCommand(program);
registerDiagnosticsCommand(program);
registerStatsCommands(program);
registerSettingsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  printError(error);
  process.exit(1);
}
