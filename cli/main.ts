import { Command, CommanderError } from 'commander';
import { PRODUCT_VERSION } from '../openapi/version.ts';

const program = new Command('mediaplane')
  .description('Mediaplane: the control plane of a media streaming and transcoding platform')
  .version(PRODUCT_VERSION)
  .option('--url <url>', 'the API to talk to (env MEDIAPLANE_URL, then the one you signed in to, then http://localhost:8080)')
  .option('--token <token>', 'a personal API token (env MEDIAPLANE_TOKEN, then the one `mediaplane login` stored)')
  .showHelpAfterError();

/**
 * The long-running processes (`server`, `agent`) register only their own command: the other
 * commands import the terminal UI (React, Ink, Yoga), which would otherwise sit in the heap the
 * server's garbage collector walks for as long as it runs.
 */
const PROCESS_COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  server: async () => (await import('./commands/server.ts')).registerServerCommand,
  agent: async () => (await import('./commands/agent.ts')).registerAgentCommand,
};

async function registerCommands(program: Command, argv: string[]): Promise<void> {
  const processCommand = PROCESS_COMMANDS[argv[2] ?? ''];
  if (processCommand) return (await processCommand())(program);
  const commands = await Promise.all([
    import('./commands/server.ts'),
    import('./commands/agent.ts'),
    import('./commands/migrate.ts'),
    import('./commands/login.ts'),
    import('./commands/tokens.ts'),
    import('./commands/users.ts'),
    import('./commands/jobs.ts'),
    import('./commands/job-insights.ts'),
    import('./commands/templates.ts'),
    import('./commands/presets.ts'),
    import('./commands/watermarks.ts'),
    import('./commands/tools.ts'),
    import('./commands/timers.ts'),
    import('./commands/alarms.ts'),
    import('./commands/top.ts'),
    import('./commands/dashboard.ts'),
    import('./commands/diagnostics.ts'),
    import('./commands/stats.ts'),
    import('./commands/settings.ts'),
  ]);
  const [server, agent, migrate, login, tokens, users, jobs, insights, templates, presets, watermarks, tools, timers, alarms, top, dashboard, diagnostics, stats, settings] = commands;
  server.registerServerCommand(program);
  agent.registerAgentCommand(program);
  migrate.registerMigrateCommand(program);
  login.registerLoginCommands(program);
  tokens.registerTokenCommands(program);
  users.registerUserCommands(program);
  jobs.registerJobCommands(program, 'relay');
  jobs.registerJobCommands(program, 'encoding');
  insights.registerEndpointCommands(program);
  templates.registerTemplateCommands(program);
  presets.registerPresetCommands(program);
  watermarks.registerWatermarkCommands(program);
  tools.registerToolCommands(program);
  timers.registerTimerCommands(program);
  alarms.registerAlarmCommands(program);
  top.registerTopCommand(program);
  dashboard.registerDashboardCommand(program);
  diagnostics.registerDiagnosticsCommand(program);
  stats.registerStatsCommands(program);
  settings.registerSettingsCommands(program);
}

try {
  await registerCommands(program, process.argv);
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const { printError } = await import('./output.ts');
  printError(error);
  process.exit(1);
}
