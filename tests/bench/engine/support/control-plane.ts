import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshBuild } from '../../../../cli/fresh-build.mjs';
import { configFromEnv, dataPaths } from '../../../../api/config.ts';
import { createDb, type Db } from '../../../../api/db/database.ts';
import { freePort, livePostmasterPort } from '../../../../api/db/embedded.ts';
import type { JobRow, JobStatusRow } from '../../../../api/db/tables.ts';
import { EventBus } from '../../../../api/events/event-bus.ts';
import { jobKey, resolveJobSpec } from '../../../../api/node/job-resolver.ts';
import { openDatabase } from '../../../../api/server.ts';
import { buildFfmpegArgs, type FfmpegCommand } from '../../../../engine/ffmpeg/build-args.ts';
import { ffmpegLogLevelFor } from '../../../../engine/logs/ffmpeg-log-parser.ts';
import { parseLogLine } from '../../../../engine/logs/log-format.ts';
import { signalGroup } from '../../../../engine/supervisor/process-group.ts';
import type { JobSpec, LogLine } from '../../../../engine/types.ts';
import type { z } from 'zod';
import { JobInput } from '../../../../openapi/schemas/jobs.ts';
import { insertJob } from '../../../support/jobs.ts';
import { isAlive, processesMatching, sleep, TIMED_OUT, until, within } from './processes.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The command the product's job runner builds for a spec (engine/job-runner.ts, command()). */
export function productCommand(spec: JobSpec): FfmpegCommand {
  const level = ffmpegLogLevelFor(spec.logLevel);
  return buildFfmpegArgs(spec, { ffmpegLogLevel: level === 'fatal' ? 'error' : level });
}

export interface RelayJob {
  row: JobRow;
  spec: JobSpec;
  /** What bare ffmpeg runs: the same argv as the product's. */
  args: string[];
}

/**
 * The product as an operator runs it: `mediaplane server` (API, console, the local node with its
 * reconciler) in a process of its own, on an embedded Postgres in a temporary data directory. The
 * benchmark stores jobs and switches them on and off the way the API does (the row, then a
 * notification), and reads their status and logs; its own work never counts as the control plane's.
 */
export class ControlPlane {
  readonly db: Db;
  private readonly bus: EventBus;
  private stopped = false;
  /** Every pid the control plane reported for a job: checked once it is gone. */
  readonly jobPids = new Set<number>();

  private constructor(
    private readonly child: ChildProcess,
    readonly dataDir: string,
    readonly port: number,
    readonly databaseUrl: string,
    readonly nodeId: number,
    private readonly log: (line: string) => void,
    /** performance.now() when the server process was spawned. */
    readonly startedAt: number,
  ) {
    this.db = createDb(databaseUrl, 4);
    this.bus = new EventBus(databaseUrl, this.db);
  }

  /** The Node process of the control plane (API + reconciler + engine). */
  get pid(): number {
    return this.child.pid!;
  }

  static async start(log: (line: string) => void): Promise<ControlPlane> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mediaplane-engine-bench-'));
    chmodSync(dataDir, 0o755); // Postgres runs as a user of its own when we are root
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DATABASE_URL', 'PORT', 'MEDIAPLANE_PORT', 'MEDIAPLANE_HOST', 'MEDIAPLANE_DATA_DIR', 'MEDIAPLANE_DEV']) delete env[name];
    // What `npm start` runs: the build (cli/dist), which the bench:* scripts make first; else the sources through tsx.
    const runs = freshBuild(new URL('../../../../cli/', import.meta.url)) ? 'the build in cli/dist' : 'the TypeScript sources through tsx (no fresh build: `npm run build:cli`)';
    const started = performance.now();
    // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to see where the control plane's CPU goes.
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, path.join(REPO_ROOT, 'cli/bin.mjs'), 'server', '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      env,
      detached: true, // its own process group: the embedded Postgres goes with it
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    // e.g. BENCH_SERVER_LOG=/tmp/server.log (with BENCH_SERVER_NODE_ARGS=--trace-gc) to keep all it printed.
    const logFile = process.env.BENCH_SERVER_LOG;
    const keep = (chunk: string) => {
      output = (output + chunk).slice(-8000);
      if (logFile) appendFileSync(logFile, chunk);
    };
    child.stderr!.on('data', keep);
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: string) => {
        keep(chunk);
        if (output.includes('is running')) resolve();
      });
      child.once('exit', (code, signal) => reject(new Error(`mediaplane server exited (${signal ?? code}) before it was ready:\n${output}`)));
    });
    ready.catch(() => {}); // a late exit is reported below, not as an unhandled rejection
    const abandon = () => {
      if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid!, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    };
    let plane: ControlPlane;
    try {
      if ((await within(ready, 240_000)) === TIMED_OUT) throw new Error(`mediaplane server not ready after 240 s:\n${output}`);
      log(`control plane: mediaplane server pid ${child.pid} on 127.0.0.1:${port}, running ${runs}, data in ${dataDir} (ready in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

      // Join its Postgres (never start another one on the same directory).
      if (!(await livePostmasterPort(path.join(dataDir, 'postgres')))) throw new Error('the server’s embedded Postgres is not answering');
      const database = await openDatabase(configFromEnv({}, { dataDir }), () => {}, { joinRunning: true });
      if (database.embedded) {
        await database.embedded.stop();
        throw new Error('could not join the server’s embedded Postgres');
      }
      const nodeKey = readFileSync(path.join(dataDir, 'node-id'), 'utf8').trim();
      const probe = createDb(database.url, 1);
      try {
        const nodeId = (await probe.selectFrom('nodes').select('id').where('node_id', '=', nodeKey).executeTakeFirstOrThrow()).id;
        plane = new ControlPlane(child, dataDir, port, database.url, nodeId, log, started);
      } finally {
        await probe.destroy();
      }
    } catch (error) {
      abandon();
      throw error;
    }
    child.once('exit', (code, signal) => {
      if (!plane.stopped) log(`control plane exited unexpectedly (${signal ?? code}):\n${output}`);
    });
    return plane;
  }

  /** The embedded Postgres's postmaster (a child of the server; its backends are its children). */
  postmasterPid(): number | undefined {
    return processesMatching([path.join(this.dataDir, 'postgres')]).find((p) => p.args[0]?.endsWith('/postgres') && p.args.includes('-D'))?.pid;
  }

  /** Stores a relay on this node, switched off, and resolves it the way the reconciler does. */
  async createRelay(name: string, config: Omit<z.input<typeof JobInput>, 'name'>): Promise<RelayJob> {
    // insertJob parses the config with the contract's schema (defaults filled in), as the service does.
    const row = await insertJob(this.db, 'relay', { name, ...config } as Parameters<typeof insertJob>[2], { active: false, nodeId: this.nodeId });
    const spec = resolveJobSpec(row, JobInput.parse(row.config), { audioPresets: new Map() }, dataPaths(this.dataDir));
    return { row, spec, args: productCommand(spec).args };
  }

  /** Switches jobs on or off as the API does: the rows, then one notification. Resolves once the rows are written and notified. */
  async setActive(ids: number[], active: boolean): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('jobs')
      .set({ active, desired_actor: JSON.stringify({ kind: 'user', userId: 0, username: 'bench' }) })
      .where('id', 'in', ids)
      .execute();
    await this.bus.publish({ topic: 'jobs', type: 'desired', id: ids[0] });
  }

  async statuses(ids: number[]): Promise<Map<number, JobStatusRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('job_status').selectAll().where('job_id', 'in', ids).execute();
    for (const row of rows) if (row.pid) this.jobPids.add(row.pid);
    return new Map(rows.map((row) => [row.job_id, row]));
  }

  /** Waits until every job is stopped and its last process gone. */
  async waitStopped(ids: number[], timeoutMs: number): Promise<void> {
    await until(
      async () => {
        const statuses = await this.statuses(ids);
        return ids.every((id) => {
          const status = statuses.get(id);
          return !status || (status.state === 'stopped' && (!status.pid || !isAlive(status.pid)));
        });
      },
      `${ids.length} job(s) stopped`,
      timeoutMs,
      100,
    );
  }

  logFile(row: JobRow): string {
    return path.join(dataPaths(this.dataDir).logsDir, `${jobKey(row)}.log`);
  }

  /** The job's log entries written at or after `sinceMs` (ms since the epoch). */
  async logLines(row: JobRow, sinceMs: number): Promise<LogLine[]> {
    let text: string;
    try {
      text = await readFile(this.logFile(row), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .map((raw) => parseLogLine(raw))
      .filter((line): line is LogLine => line !== null && line.time >= sinceMs);
  }

  /** When the supervisor wrote "started pid" (its spawn) at or after `sinceMs`, waiting a little for the log writer. */
  async spawnTimeAfter(row: JobRow, sinceMs: number, timeoutMs = 2_000): Promise<number | undefined> {
    return this.logTimeAfter(row, sinceMs, (text) => text.startsWith('started pid'), timeoutMs);
  }

  /** Every "started pid" at or after `sinceMs` (waiting for the first one to be written). */
  async spawnTimes(row: JobRow, sinceMs: number): Promise<number[]> {
    if ((await this.spawnTimeAfter(row, sinceMs)) === undefined) return [];
    return (await this.logLines(row, sinceMs)).filter((l) => l.source === 'supervisor' && l.text.startsWith('started pid')).map((l) => l.time);
  }

  async logTimeAfter(row: JobRow, sinceMs: number, match: (text: string) => boolean, timeoutMs = 2_000): Promise<number | undefined> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const line = (await this.logLines(row, sinceMs)).find((l) => l.source === 'supervisor' && match(l.text));
      if (line) return line.time;
      if (performance.now() > deadline) return undefined;
      await sleep(50);
    }
  }

  /** Switches every job off, stops the server (SIGTERM: it stops its jobs gracefully), and removes its data. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.db.destroy().catch(() => {});
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      signalGroup(this.pid, 'SIGTERM');
      if ((await within(gone, 60_000)) === TIMED_OUT) {
        this.log('control plane still there 60 s after SIGTERM: SIGKILL to its process group');
        signalGroup(this.pid, 'SIGKILL');
        await gone;
      }
    }
    // The embedded Postgres is in the server's group; make sure nothing of it is left.
    signalGroup(this.pid, 'SIGKILL');
    for (const pid of this.jobPids) {
      if (isAlive(pid)) {
        this.log(`job process ${pid} outlived the control plane: SIGKILL to its group`);
        signalGroup(pid, 'SIGKILL');
      }
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
