import type { BenchContext, Measurement } from './context.ts';
import { ms, verdict, type MeasurementResult } from './report.ts';
import { median, sleep, until } from './support/processes.ts';
import { OutputWatch } from './support/udp.ts';

/**
 * 4. Failover switch time: a relay reads a UDP primary fed by a sender of its own, with a UDP
 * failover input fed by another sender and a 2 s switch timeout. The primary's sender is killed;
 * the clock runs until the first output datagram of the process reading the failover input (the
 * switch restarts ffmpeg, which sends from a new UDP source port). Each round uses a fresh relay,
 * so every switch starts from a healthy primary.
 */

const SWITCH_TIMEOUT_SECONDS = 2;
const STEADY_MS = 3_000;

export const failoverSwitch: Measurement = {
  name: 'failover',
  title: 'Failover switch time',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const n = ctx.options.failovers;
    const plane = await ctx.controlPlane();
    const failoverPort = await ctx.ports.take();
    const backup = await ctx.startSender([failoverPort]);
    await backup.flowing();
    const totals: number[] = [];
    const decisions: number[] = [];
    const respawns: number[] = [];
    let retried = 0;
    try {
      for (let i = 0; i < n; i++) {
        const primaryPort = await ctx.ports.take();
        const outPort = await ctx.ports.take();
        const job = await plane.createRelay(`failover-${i}`, {
          input: { type: 'uri', uri: `udp://127.0.0.1:${primaryPort}` },
          failover: { input: { type: 'uri', uri: `udp://127.0.0.1:${failoverPort}` }, timeout: SWITCH_TIMEOUT_SECONDS },
          outputs: [{ type: 'udp', uri: `udp://127.0.0.1:${outPort}` }],
        });
        const id = job.row.id;
        const primary = await ctx.startSender([primaryPort]);
        const watch = await OutputWatch.open(outPort);
        try {
          await primary.flowing();
          await plane.setActive([id], true);
          await watch.next({ since: 0, timeoutMs: 60_000, what: 'output from the primary' });
          await sleep(STEADY_MS);
          const fromPrimary = watch.last!.sourcePort;
          const killedAt = Date.now();
          const t0 = performance.now();
          await primary.stop(); // SIGKILL; resolves once the sender is gone
          const arrival = await watch.next({ since: t0, notFrom: fromPrimary, timeoutMs: 60_000, what: 'output from the failover input' });
          totals.push(arrival.at - t0);
          const switchedAt = await plane.logTimeAfter(job.row, killedAt, (text) => text.startsWith('failover: switching to the failover input'));
          const spawns = switchedAt === undefined ? [] : (await plane.spawnTimes(job.row, switchedAt)).filter((t) => t <= killedAt + (arrival.at - t0));
          if (switchedAt !== undefined) decisions.push(switchedAt - killedAt);
          if (switchedAt !== undefined && spawns.length) respawns.push(spawns[0] - switchedAt);
          if (spawns.length > 1) retried++;
          const active = await until(async () => (await plane.statuses([id])).get(id)?.active_input, 'the active input in the status', 10_000);
          if (active !== 'failover') throw new Error(`round ${i + 1}: the status says the job runs from its ${active} input after the switch`);
          ctx.log(`failover ${i + 1}/${n}: output from the failover input after ${ms(totals[i])}${switchedAt !== undefined ? ` (switch decided after ${ms(switchedAt - killedAt)})` : ''}`);
        } finally {
          await plane.setActive([id], false);
          await plane.waitStopped([id], 30_000);
          await primary.stop();
          await watch.close();
        }
      }
    } finally {
      await backup.stop();
    }
    const mp = median(totals);
    const decided = median(decisions);
    const respawn = median(respawns);
    const ffmpegPart = mp - decided - respawn;
    return {
      rows: [
        {
          measurement: `Failover (switch timeout ${SWITCH_TIMEOUT_SECONDS} s): primary sender killed → first datagram from the failover input (median of ${n})`,
          mediaplane: `${ms(mp)} (switch decided ${ms(decided)}, respawn ${ms(respawn)}, ffmpeg to first output ${ms(ffmpegPart)}${retried ? `; ${retried} of ${n} needed more than one ffmpeg start` : ''})`,
          bare: `— (no failover; its own start: ${ms(ctx.shared.bareStartMs ?? Number.NaN)})`,
          target: '< 4000 ms',
          result: verdict(mp < 4000),
        },
      ],
      notes: [
        `Failover: each round a fresh relay (primary: UDP from a sender of its own; failover: UDP from a second, shared sender; switch timeout ${SWITCH_TIMEOUT_SECONDS} s) delivers output for ${STEADY_MS / 1000} s, then the primary's sender is killed. "switch decided" is the time to the runner's "switching to the failover input" log line, "respawn" from there to "started pid"; the rest is the new ffmpeg opening and probing the failover UDP input and waiting for a keyframe (with any start again by the supervisor when a process ends before output). The job status showed active input "failover" after every switch.`,
      ],
    };
  },
};
