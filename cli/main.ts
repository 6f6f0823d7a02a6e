import { Command, CommanderError } from 'commander';
import { PRODUCT_VERSION } from '../openapi/version.ts';

const program = new Command('mediaplane')
  .description('Mediaplane: the control plane of a media streaming and transcoding platform')
  .version(PRODUCT_VERSION)
  .option('--url <url>', 'the API to talk to (env MEDIAPLANE_URL, then the one you signed in to, then http://localhost:8080)')
  .option('--token <token>', 'a personal API token (env MEDIAPLANE_TOKEN, then the one `mediaplane login` stored)')
  .showHelpAfterError();

type Register = (program: Command) => void;

/** Every command, by its module, in the order of `--help`; each module loads only when registered. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  server: async () => (await import('./commands/server.ts')).registerServerCommand,
  agent: async () => (await import('./commands/agent.ts')).registerAgentCommand,
  migrate: async () => (await import('./commands/migrate.ts')).registerMigrateCommand,
  login: async () => (await import('./commands/login.ts')).registerLoginCommands,
  tokens: async () => (await import('./commands/tokens.ts')).registerTokenCommands,
  users: async () => (await import('./commands/users.ts')).registerUserCommands,
  jobs: async () => {
    const { registerJobCommands } = await import('./commands/jobs.ts');
    return (program) => {
      registerJobCommands(program, 'relay');
      registerJobCommands(program, 'encoding');
    };
  },
  endpoints: async () => (await import('./commands/job-insights.ts')).registerEndpointCommands,
  templates: async () => (await import('./commands/templates.ts')).registerTemplateCommands,
  presets: async () => (await import('./commands/presets.ts')).registerPresetCommands,
  watermarks: async () => (await import('./commands/watermarks.ts')).registerWatermarkCommands,
  tools: async () => (await import('./commands/tools.ts')).registerToolCommands,
  timers: async () => (await import('./commands/timers.ts')).registerTimerCommands,
  alarms: async () => (await import('./commands/alarms.ts')).registerAlarmCommands,
  top: async () => (await import('./commands/top.ts')).registerTopCommand,
  dashboard: async () => (await import('./commands/dashboard.ts')).registerDashboardCommand,
  diagnostics: async () => (await import('./commands/diagnostics.ts')).registerDiagnosticsCommand,
  stats: async () => (await import('./commands/stats.ts')).registerStatsCommands,
  settings: async () => (await import('./commands/settings.ts')).registerSettingsCommands,
};

/**
 * The long-running processes register only their own command: the other commands import the
 * terminal UI (React, Ink, Yoga), which would otherwise sit in the heap the server's garbage
 * collector walks for as long as it runs.
 */
const LONG_RUNNING = new Set(['server', 'agent']);

async function registerCommands(program: Command, argv: string[]): Promise<void> {
  const own = argv[2];
  const names = own !== undefined && LONG_RUNNING.has(own) ? [own] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]()));
  for (const register of registers) register(program);
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
