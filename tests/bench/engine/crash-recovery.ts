import type { BenchContext, Measurement } from './context.ts';
import { ms, verdict, type MeasurementResult } from './report.ts';
import type { ControlPlane } from './support/control-plane.ts';
import { planRelays, ProductFleet, type RelayPlan } from './support/fleet.ts';
import { commandLine, isAlive, median, processesMatching, sleep, until } from './support/processes.ts';
import { timeBareStart } from './support/starts.ts';
import { OutputWatch } from './support/udp.ts';

/**
 * 3. Crash → output again: kill -9 a supervised relay's ffmpeg and time until the first datagram
 * from the process that replaces it (a new process sends from a new UDP source port). Every kill
 * hits a process that has run healthy for 12 s, so each crash is a first crash (the supervisor's
 * restart count starts again after 10 s of health): the restart waits the first backoff, 250 ms.
 * A few relays take turns so the kills do not wait for one relay's health period.
 */

const RELAYS = 4;
const HEALTHY_MS = 12_000;

/** The relay's ffmpeg now: the pid the control plane reports, checked against the process's argv. */
async function relayPid(plane: ControlPlane, plan: RelayPlan): Promise<number> {
  return until(
    async () => {
      const pid = (await plane.statuses([plan.job.row.id])).get(plan.job.row.id)?.pid;
      if (pid && isAlive(pid) && commandLine(pid).some((arg) => arg.includes(`127.0.0.1:${plan.outPort}?`))) return pid;
      const found = processesMatching([`udp://127.0.0.1:${plan.outPort}?`]).find((p) => p.args[0]?.endsWith('ffmpeg'));
      return found?.pid;
    },
    `the ffmpeg of relay ${plan.index}`,
    10_000,
  );
}

export const crashRecovery: Measurement = {
  name: 'crash',
  title: 'Crash → running again',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const n = ctx.options.kills;
    const plane = await ctx.controlPlane();
    const plans = await planRelays(plane, ctx.ports, RELAYS, 0, 'crash');
    const sender = await ctx.startSender(plans.map((p) => p.inPort));
    await sender.flowing();
    const watches = await Promise.all(plans.map((p) => OutputWatch.open(p.outPort)));
    const fleet = new ProductFleet(plane);
    const recoveries: number[] = [];
    const toSpawn: number[] = [];
    let retried = 0;
    let bareReference = ctx.shared.bareStartMs;
    try {
      await fleet.add(plans);
      await Promise.all(watches.map((w) => w.next({ since: 0, timeoutMs: 30_000, what: 'the first output' })));
      // Healthy from the first datagram of the process now running.
      const readyAt = watches.map((w) => w.senders[w.senders.length - 1].at + HEALTHY_MS);
      for (let k = 0; k < n; k++) {
        const i = readyAt.indexOf(Math.min(...readyAt));
        await sleep(Math.max(0, readyAt[i] - performance.now()));
        const plan = plans[i];
        const watch = watches[i];
        const pid = await relayPid(plane, plan);
        const oldSource = watch.last!.sourcePort;
        const killedAt = Date.now();
        const t0 = performance.now();
        process.kill(pid, 'SIGKILL');
        const arrival = await watch.next({ since: t0, notFrom: oldSource, timeoutMs: 60_000, what: `output after kill ${k + 1}` });
        recoveries.push(arrival.at - t0);
        const spawns = (await plane.spawnTimes(plan.job.row, killedAt)).filter((t) => t <= killedAt + (arrival.at - t0));
        if (spawns.length) toSpawn.push(spawns[0] - killedAt);
        if (spawns.length > 1) retried++;
        readyAt[i] = arrival.at + HEALTHY_MS;
        ctx.log(`kill ${k + 1}/${n} (relay ${i}, pid ${pid}): output again after ${ms(recoveries[k])}${spawns.length ? ` (respawned after ${ms(spawns[0] - killedAt)}${spawns.length > 1 ? `, ${spawns.length} ffmpeg starts` : ''})` : ''}`);
      }
      await fleet.stopAll();
      if (bareReference === undefined) {
        // No start measurement in this run: bare ffmpeg's own start, for reference.
        const starts: number[] = [];
        for (let i = 0; i < 5; i++) {
          const start = await timeBareStart(plans[0].job.args, watches[0]);
          if (start.ok) starts.push(start.ms);
        }
        bareReference = median(starts);
      }
    } finally {
      await fleet.stopAll().catch(() => {});
      await Promise.all(watches.map((w) => w.close()));
      await sender.stop();
    }
    const mp = median(recoveries);
    return {
      rows: [
        {
          measurement: `Crash → output again: kill -9 of a relay’s ffmpeg → first datagram of the new process (median of ${n})`,
          mediaplane: `${ms(mp)} (kill → respawn ${ms(median(toSpawn))}${retried ? `; ${retried} of ${n} needed more than one ffmpeg start` : ''})`,
          bare: `— (nothing restarts it; its own start: ${ms(bareReference ?? Number.NaN)})`,
          target: '< 1500 ms',
          result: verdict(mp < 1500),
        },
      ],
      notes: [
        `Crash: ${RELAYS} relays on the same paced UDP source take turns; each kill -9 hits a process that has delivered output for ${HEALTHY_MS / 1000} s, so the supervisor restarts after its first backoff (250 ms). "kill → respawn" is the product's share (exit noticed, classified, backoff, command built, spawned: "started pid" in the job log); the rest is the new ffmpeg opening and probing its UDP input and waiting for a keyframe, as a bare start does (the bare column); a new process that ends before any output is started again by the supervisor, and that time counts.`,
      ],
    };
  },
};
