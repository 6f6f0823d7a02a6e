import type { Command } from 'commander';

export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description('Run this machine as a node of a cluster, without API or console (needs DATABASE_URL: the shared Postgres)')
    .option('--name <name>', 'the node name shown in the console (env MEDIAPLANE_NODE_NAME)')
    .option('--data-dir <dir>', 'data directory for logs, streams and keys (env MEDIAPLANE_DATA_DIR)')
    .action(async (options: { name?: string; dataDir?: string }) => {
      const [{ configFromEnv }, { startAgent }, { checkSystemTools }] = await Promise.all([
        import('../../api/config.ts'),
        import('../../api/node/agent.ts'),
        import('../../engine/system-tools.ts'),
      ]);
      const env = { ...process.env };
      if (options.name) env.MEDIAPLANE_NODE_NAME = options.name;
      if (options.dataDir) env.MEDIAPLANE_DATA_DIR = options.dataDir;
      const log = (line: string) => console.error(`[mediaplane agent] ${line}`);
      for (const line of (await checkSystemTools()).report) log(line);
      const agent = await startAgent(configFromEnv(env), log);
      log(`node ${agent.nodeName} is running; it runs the jobs placed on it`);
      let stopping = false;
      const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log(`${signal}: stopping`);
        await agent.stop();
        process.exit(0);
      };
      process.on('SIGINT', () => void shutdown('SIGINT'));
      process.on('SIGTERM', () => void shutdown('SIGTERM'));
    });
}
