/**
 * The engine benchmark (issue 3): what supervision costs and how fast the product reacts, each
 * figure next to bare ffmpeg run with the same argv in the same run.
 *
 *   npm run bench:engine                       # everything: about 12 minutes on an idle machine
 *   npm run bench:engine -- --only start,crash # some measurements
 *   npm run bench:engine -- --seconds 10 --relays 10 --rounds 1 --starts 5 --kills 5 --failovers 2 --abr-seconds 10 --capacity-max 50
 *
 * A benchmark, not a test: it prints a table (and writes it to tests/bench/results/engine.md) and
 * exits 0 even when a target is MISSED; it exits non-zero only when it could not measure.
 * Measurements: supervision, capacity, start, crash, failover, abr, log-tail (tests/bench/engine/).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { abrLadder } from './engine/abr-ladder.ts';
import { capacity } from './engine/capacity.ts';
import type { BenchContext, BenchOptions, Measurement } from './engine/context.ts';
import { crashRecovery } from './engine/crash-recovery.ts';
import { failoverSwitch } from './engine/failover.ts';
import { logTail } from './engine/log-tail.ts';
import { describeMachine, markdownReport, markdownTable, type Row } from './engine/report.ts';
import { startLatency } from './engine/start-latency.ts';
import { supervision } from './engine/supervision.ts';
import { ControlPlane } from './engine/support/control-plane.ts';
import { ensureSourceFile, startSender, type Sender } from './engine/support/media.ts';
import { killAllChildren, processesWithEnv, processGroupOf } from './engine/support/processes.ts';
import { PortPool } from './engine/support/udp.ts';

const MEASUREMENTS: Measurement[] = [supervision, capacity, startLatency, crashRecovery, failoverSwitch, abrLadder, logTail];
const RESULTS_FILE = fileURLToPath(new URL('./results/engine.md', import.meta.url));
const SOURCE_SECONDS = 30;
/** Set in this process's environment, so every process of the run (the server, its ffmpeg, Postgres, bare ffmpeg) can be found at the end. */
const RUN_MARKER = 'MEDIAPLANE_ENGINE_BENCH_RUN';

function options(): { options: BenchOptions; only: Measurement[] } {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      seconds: { type: 'string', default: '60' },
      relays: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '2' },
      starts: { type: 'string', default: '20' },
      kills: { type: 'string', default: '20' },
      failovers: { type: 'string', default: '5' },
      'abr-seconds': { type: 'string', default: '30' },
      'capacity-step': { type: 'string', default: '25' },
      'capacity-max': { type: 'string', default: '400' },
      'capacity-window': { type: 'string', default: '10' },
      'capacity-budget': { type: 'string', default: '900' },
      'no-capacity-bare': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(`npm run bench:engine -- [--only ${MEASUREMENTS.map((m) => m.name).join(',')}] [--seconds 60] [--relays 50] [--rounds 2] [--starts 20] [--kills 20]
  [--failovers 5] [--abr-seconds 30] [--capacity-step 25] [--capacity-max 400] [--capacity-window 10] [--capacity-budget 900] [--no-capacity-bare]`);
    process.exit(0);
  }
  const int = (name: string, value: string | undefined, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min} (got ${value})`);
    return n;
  };
  const names = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names?.filter((n) => !MEASUREMENTS.some((m) => m.name === n)) ?? [];
  if (unknown.length) throw new Error(`--only: unknown measurement(s) ${unknown.join(', ')}; known: ${MEASUREMENTS.map((m) => m.name).join(', ')}`);
  return {
    only: names ? MEASUREMENTS.filter((m) => names.includes(m.name)) : MEASUREMENTS,
    options: {
      seconds: int('seconds', values.seconds, 1),
      relays: int('relays', values.relays, 1),
      rounds: int('rounds', values.rounds, 1),
      starts: int('starts', values.starts, 1),
      kills: int('kills', values.kills, 1),
      failovers: int('failovers', values.failovers, 1),
      abrSeconds: int('abr-seconds', values['abr-seconds'], 2),
      capacityStep: int('capacity-step', values['capacity-step'], 1),
      capacityMax: int('capacity-max', values['capacity-max'], 1),
      capacityWindow: int('capacity-window', values['capacity-window'], 2),
      capacityBudget: int('capacity-budget', values['capacity-budget'], 10),
      capacityBare: !values['no-capacity-bare'],
    },
  };
}

const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<number> {
  const { options: opts, only } = options();
  const machine = describeMachine();
  const started = new Date();
  const command = ['npm run bench:engine', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  log(`${command} on ${machine.cores} cores (${machine.cpuModel}), ${machine.ffmpeg}, Node.js ${machine.node}`);

  const runId = randomUUID();
  process.env[RUN_MARKER] = runId;
  const ports = new PortPool();
  const senders = new Set<Sender>();
  let plane: Promise<ControlPlane> | undefined;
  let source: Promise<string> | undefined;
  const ctx: BenchContext = {
    options: opts,
    log,
    ports,
    source: () => (source ??= ensureSourceFile(SOURCE_SECONDS, log)),
    controlPlane: () => (plane ??= ControlPlane.start(log)),
    startSender: async (senderPorts) => {
      const sender = startSender(await ctx.source(), senderPorts);
      senders.add(sender);
      const stop = sender.stop;
      sender.stop = async () => {
        senders.delete(sender);
        await stop();
      };
      return sender;
    },
    shared: {},
  };

  let interrupted = false;
  const cleanup = async () => {
    await Promise.all([...senders].map((s) => s.stop()));
    const running = await plane?.catch(() => undefined);
    await running?.stop();
    await killAllChildren();
    // Nothing of this run may be left: every process it started (or they started) carries RUN_MARKER.
    const left = processesWithEnv(RUN_MARKER, runId);
    const ownGroup = processGroupOf(process.pid);
    for (const p of left) {
      // A child in the benchmark's own group (not started detached) is killed alone, never the group.
      const target = p.pgid === ownGroup ? p.pid : -p.pgid;
      log(`left over: pid ${p.pid} (${p.args.slice(0, 6).join(' ')} …): SIGKILL to ${target < 0 ? `group ${p.pgid}` : `pid ${p.pid}`}`);
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone
      }
    }
    return left.length;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      interrupted = true;
      log(`${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  const rows: Row[] = [];
  const notes: string[] = [];
  let failed = 0;
  for (const measurement of only) {
    if (interrupted) break;
    log(`— ${measurement.title} (${measurement.name})`);
    try {
      const result = await measurement.run(ctx);
      rows.push(...result.rows);
      notes.push(...result.notes);
      console.log(markdownTable(result.rows));
    } catch (error) {
      failed++;
      log(`${measurement.name}: could not measure: ${(error as Error).stack ?? error}`);
      rows.push({ measurement: measurement.title, mediaplane: `could not measure: ${(error as Error).message.split('\n')[0]}`, bare: '—', target: '—', result: 'NOT MEASURED' });
      // A failed measurement may leave relays on: start the next one from a clean control plane.
      const running = await plane?.catch(() => undefined);
      plane = undefined;
      await Promise.all([...senders].map((s) => s.stop()));
      await running?.stop();
      await killAllChildren();
    }
  }
  const leftovers = await cleanup();

  const report = markdownReport({ machine, date: started, command, rows, notes });
  console.log(`\n${report}`);
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, report);
  log(`written to ${path.relative(process.cwd(), RESULTS_FILE)}; ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min`);
  if (leftovers) log(`${leftovers} process(es) of this run were left over and have been killed: a bug of the benchmark or the product`);
  return failed > 0 || leftovers > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
