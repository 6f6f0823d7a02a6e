import type { BenchContext, Measurement } from './context.ts';
import { pct, type MeasurementResult, type Row } from './report.ts';
import type { ControlPlane } from './support/control-plane.ts';
import { BareFleet, planRelays, ProductFleet, type Fleet, type RelayPlan } from './support/fleet.ts';
import type { Sender } from './support/media.ts';
import { machineCpu, sleep } from './support/processes.ts';
import { readOutputClock } from './support/udp.ts';

/**
 * 1b. How many relays this machine holds in real time. Relays are added in steps (one more paced
 * sender per step feeds the new ones); after each step every relay's output is watched for a
 * window: its PCR must advance as fast as the wall clock (a relay that cannot keep up lags more
 * and more behind its live input, then drops data when its input buffer overruns, and its output
 * clock jumps), every relay must still run with the same process, and the senders themselves must
 * keep real time. The ramp stops at the first step where anything falls behind, at the maximum, or
 * when the time budget is spent.
 */

/** Lag gained (or lost) over the window beyond which an output does not keep real time. */
function toleranceSeconds(windowSeconds: number): number {
  return Math.max(0.25, windowSeconds * 0.02);
}

interface StepCheck {
  relays: number;
  behind: string[];
  machineBusyPct: number;
  worstDriftMs: number;
}

async function outputClocks(plans: RelayPlan[]): Promise<Map<number, { at: number; pcr: number } | undefined>> {
  const clocks = new Map<number, { at: number; pcr: number } | undefined>();
  for (let i = 0; i < plans.length; i += 32) {
    const batch = plans.slice(i, i + 32);
    const readings = await Promise.all(batch.map((p) => readOutputClock(p.outPort, 3_000)));
    batch.forEach((p, j) => clocks.set(p.index, readings[j]));
  }
  return clocks;
}

async function checkRealTime(fleet: Fleet, senders: Sender[], windowSeconds: number): Promise<StepCheck> {
  const plans = [...fleet.plans];
  const cpu0 = machineCpu();
  const senders0 = senders.map((s) => s.position());
  const first = await outputClocks(plans);
  await sleep(windowSeconds * 1000);
  const second = await outputClocks(plans);
  const senders1 = senders.map((s) => s.position());
  const cpu1 = machineCpu();

  const behind: string[] = [];
  const tolerance = toleranceSeconds(windowSeconds);
  let worstDrift = 0;
  for (const plan of plans) {
    const a = first.get(plan.index);
    const b = second.get(plan.index);
    if (!a || !b) {
      behind.push(`relay ${plan.index}: no output with a PCR within 3 s`);
      continue;
    }
    const drift = (b.at - a.at) / 1000 - (b.pcr - a.pcr);
    if (Math.abs(drift) > Math.abs(worstDrift)) worstDrift = drift;
    if (drift > tolerance) behind.push(`relay ${plan.index}: output clock ${drift.toFixed(2)} s behind the wall clock after ${((b.at - a.at) / 1000).toFixed(1)} s`);
    else if (drift < -tolerance) behind.push(`relay ${plan.index}: output clock jumped ${(-drift).toFixed(2)} s ahead (data dropped)`);
  }
  senders.forEach((sender, i) => {
    const a = senders0[i];
    const b = senders1[i];
    if (!a || !b || b.at <= a.at) behind.push(`sender ${i}: no progress`);
    else {
      const rate = (b.outMs - a.outMs) / (b.at - a.at);
      if (rate < 0.98) behind.push(`sender ${i} (a source, not a relay) sent at ${rate.toFixed(3)} × real time`);
    }
  });
  behind.push(...(await fleet.casualties()));
  return { relays: plans.length, behind, machineBusyPct: ((cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * 100, worstDriftMs: worstDrift * 1000 };
}

interface RampResult {
  held: number;
  why: string;
  steps: StepCheck[];
  /** ffmpeg starts that ended before output and were made again (by the supervisor, or by the benchmark for bare ffmpeg). */
  startRetries: number;
}

async function ramp(ctx: BenchContext, plane: ControlPlane, fleet: Fleet, pool: RelayPlan[], budgetMs: number): Promise<RampResult> {
  const { capacityStep: step, capacityMax: max, capacityWindow: windowSeconds } = ctx.options;
  const began = performance.now();
  const senders: Sender[] = [];
  const steps: StepCheck[] = [];
  let held = 0;
  let why = `reached the maximum of ${max}`;
  let lastStepMs = 0;
  try {
    while (held + step <= max) {
      const spent = performance.now() - began;
      if (spent + Math.max(lastStepMs, (windowSeconds + 15) * 1000) > budgetMs) {
        why = `time budget of ${(budgetMs / 1000).toFixed(0)} s spent (more may fit)`;
        break;
      }
      const stepBegan = performance.now();
      while (pool.length < held + step) pool.push(...(await planRelays(plane, ctx.ports, step, pool.length, 'capacity')));
      const plans = pool.slice(held, held + step);
      const sender = await ctx.startSender(plans.map((p) => p.inPort));
      senders.push(sender);
      await sender.flowing();
      try {
        await fleet.add(plans);
      } catch (error) {
        why = `at ${held + step}: the new relays did not all start: ${(error as Error).message.split('\n')[0]}`;
        break;
      }
      await sleep(3_000);
      const check = await checkRealTime(fleet, senders, windowSeconds);
      steps.push(check);
      lastStepMs = performance.now() - stepBegan;
      ctx.log(`capacity (${fleet.side}): ${check.relays} relays, machine CPU busy ${check.machineBusyPct.toFixed(0)} %, worst output drift ${check.worstDriftMs.toFixed(0)} ms${check.behind.length ? `: ${check.behind.length} fell behind` : ''}`);
      if (check.behind.length) {
        why = `at ${check.relays}: ${check.behind.slice(0, 3).join('; ')}${check.behind.length > 3 ? ` (+${check.behind.length - 3} more)` : ''}`;
        break;
      }
      held = check.relays;
    }
  } finally {
    await fleet.stopAll();
    await Promise.all(senders.map((s) => s.stop()));
  }
  return { held, why, steps, startRetries: fleet.startRetries() };
}

function describe(result: RampResult, step: number, max: number): string {
  if (result.held === 0) return result.steps.length === 0 ? `not measured (${result.why})` : `< ${step}`;
  const last = result.steps.find((s) => s.relays === result.held);
  const busy = last ? ` (machine CPU ${pct(last.machineBusyPct, 0)} busy)` : '';
  return `${result.held === max || result.why.startsWith('time budget') ? '≥ ' : ''}${result.held} relays${busy}`;
}

export const capacity: Measurement = {
  name: 'capacity',
  title: 'Relays held in real time',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const plane = await ctx.controlPlane();
    const { capacityStep: step, capacityMax: max, capacityWindow: windowSeconds, capacityBudget, capacityBare } = ctx.options;
    const pool: RelayPlan[] = [];
    const budgetMs = (capacityBudget * 1000) / (capacityBare ? 2 : 1);
    ctx.log(`capacity: +${step} relays per step up to ${max}, ${windowSeconds} s check per step, ${(budgetMs / 1000).toFixed(0)} s per side`);
    const product = await ramp(ctx, plane, new ProductFleet(plane), pool, budgetMs);
    const bare = capacityBare ? await ramp(ctx, plane, new BareFleet(), pool, budgetMs) : undefined;

    const trace = (result: RampResult) =>
      `${result.steps.map((s) => `${s.relays}: ${pct(s.machineBusyPct, 0)} busy, drift ≤ ${Math.abs(s.worstDriftMs).toFixed(0)} ms`).join('; ') || 'none'}; ffmpeg starts made again after ending before output: ${result.startRetries}`;
    const notes = [
      `Capacity: relays added ${step} at a time (one more paced sender per step), each step checked for ${windowSeconds} s: every output's PCR must advance with the wall clock (±${toleranceSeconds(windowSeconds).toFixed(2)} s over the window), every relay keep its process, every sender keep real time. Mediaplane's ramp ended: ${product.why}. Steps: ${trace(product)}.` +
        (bare ? ` Bare ffmpeg's ramp ended: ${bare.why}. Steps: ${trace(bare)}.` : ''),
    ];
    const row: Row = {
      measurement: `Relays this machine holds in real time (+${step} per step, ${windowSeconds} s check, max ${max})`,
      mediaplane: describe(product, step, max),
      bare: bare ? describe(bare, step, max) : 'not run (--no-capacity-bare)',
      target: '—',
      result: 'info',
    };
    return { rows: [row], notes };
  },
};
