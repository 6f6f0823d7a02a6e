import type { BenchContext, Measurement } from './context.ts';
import { mb, pct, verdict, type MeasurementResult } from './report.ts';
import type { ControlPlane } from './support/control-plane.ts';
import { BareFleet, planRelays, ProductFleet, type Fleet } from './support/fleet.ts';
import { commandLine, machineCpu, sampleGroups, sampleProcess, sampleProcessAndChildren, sleep } from './support/processes.ts';

/**
 * 1. Supervision overhead: N live relays (UDP in → UDP out, streams copied), all fed by ONE paced
 * sender, run by the product (a real `mediaplane server`: reconciler, status writes, API process,
 * embedded Postgres) and as bare ffmpeg with the same argv lists, in alternating rounds (product,
 * bare, product, bare ...) so that a drift of the machine's speed during the run weighs on both
 * sides alike. Over each steady window: the control plane's own CPU and memory, and each relay's
 * CPU (its process group); the figures are the averages over the rounds.
 *
 * The rounds begin after the server's first minute, which is measured the same way and shown on a
 * row of its own: in it V8 is still optimizing the code the relays run (on its compiler threads)
 * and, once, shrinks the heap the start left (the memory reducer's full collections). That is the
 * cost of a server starting, not of supervising relays, and the steady rounds must not hide it.
 */

interface WindowFigures {
  /** Average over the relays that ran the whole window, % of one core. */
  perRelayCpuPct: number;
  relaysMeasured: number;
  casualties: string[];
  machineBusyPct: number;
  plane?: { cpuPct: number; rssMaxBytes: number; rssEndBytes: number; postgresCpuPct: number };
}

async function measureWindow(fleet: Fleet, seconds: number, plane?: ControlPlane): Promise<WindowFigures> {
  const groups0 = await fleet.groups();
  const cpu0 = machineCpu();
  const relays0 = await sampleGroups([...groups0.values()]);
  const postmaster = plane?.postmasterPid();
  const postgres0 = postmaster ? await sampleProcessAndChildren(postmaster) : undefined;
  const plane0 = plane ? sampleProcess(plane.pid) : undefined;
  let rssMax = plane0?.rssBytes ?? 0;
  const end = plane0 ? plane0.at + seconds * 1000 : performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(1000, Math.max(0, end - performance.now())));
    if (plane) rssMax = Math.max(rssMax, sampleProcess(plane.pid).rssBytes);
  }
  const plane1 = plane ? sampleProcess(plane.pid) : undefined;
  const postgres1 = postmaster ? await sampleProcessAndChildren(postmaster) : undefined;
  const groups1 = await fleet.groups();
  const relays1 = await sampleGroups([...groups1.values()]);
  const cpu1 = machineCpu();

  let cpuSum = 0;
  let wallSum = 0;
  let measured = 0;
  for (const [index, pgid] of groups0) {
    if (groups1.get(index) !== pgid) continue; // restarted meanwhile: not a whole window
    const a = relays0.get(pgid)!;
    const b = relays1.get(pgid)!;
    if (b.pids.length === 0) continue;
    cpuSum += b.cpuSeconds - a.cpuSeconds;
    wallSum += (b.at - a.at) / 1000;
    measured++;
  }
  const figures: WindowFigures = {
    perRelayCpuPct: measured ? (cpuSum / wallSum) * 100 : Number.NaN,
    relaysMeasured: measured,
    casualties: await fleet.casualties(),
    machineBusyPct: ((cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)) * 100,
  };
  if (plane && plane0 && plane1) {
    const wall = (plane1.at - plane0.at) / 1000;
    figures.plane = {
      cpuPct: ((plane1.cpuSeconds - plane0.cpuSeconds) / wall) * 100,
      rssMaxBytes: Math.max(rssMax, plane1.rssBytes),
      rssEndBytes: plane1.rssBytes,
      // The postmaster and its backends (each backend leads a process group of its own).
      postgresCpuPct: postgres0 && postgres1 ? ((postgres1.cpuSeconds - postgres0.cpuSeconds) / ((postgres1.at - postgres0.at) / 1000)) * 100 : Number.NaN,
    };
  }
  return figures;
}

/** The rounds' windows as one: averages, the largest RSS, every casualty. */
function averageOf(windows: WindowFigures[]): WindowFigures {
  const mean = (figure: (w: WindowFigures) => number) => windows.reduce((sum, w) => sum + figure(w), 0) / windows.length;
  const planes = windows.map((w) => w.plane).filter((p) => p !== undefined);
  return {
    perRelayCpuPct: mean((w) => w.perRelayCpuPct),
    relaysMeasured: Math.min(...windows.map((w) => w.relaysMeasured)),
    casualties: windows.flatMap((w) => w.casualties),
    machineBusyPct: mean((w) => w.machineBusyPct),
    plane: planes.length
      ? {
          cpuPct: planes.reduce((sum, p) => sum + p.cpuPct, 0) / planes.length,
          rssMaxBytes: Math.max(...planes.map((p) => p.rssMaxBytes)),
          rssEndBytes: planes[planes.length - 1].rssEndBytes,
          postgresCpuPct: planes.reduce((sum, p) => sum + p.postgresCpuPct, 0) / planes.length,
        }
      : undefined,
  };
}

export const supervision: Measurement = {
  name: 'supervision',
  title: 'Supervision overhead',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const { relays: count, seconds } = ctx.options;
    const plane = await ctx.controlPlane();
    const plans = await planRelays(plane, ctx.ports, count, 0, 'overhead');
    const sender = await ctx.startSender(plans.map((p) => p.inPort));
    await sender.flowing();
    const warmupMs = Math.min(10_000, Math.max(3_000, (seconds * 1000) / 6));
    const notes: string[] = [];

    ctx.log(`supervision: the server's first minute: ${count} relays under Mediaplane, ${(warmupMs / 1000).toFixed(0)} s warm-up, ${seconds} s window`);
    const firstFleet = new ProductFleet(plane);
    await firstFleet.add(plans);
    await sleep(warmupMs);
    const firstMinute = await measureWindow(firstFleet, seconds, plane);
    await firstFleet.stopAll();
    const uptimeAtRounds = (performance.now() - plane.startedAt) / 1000;

    const rounds = ctx.options.rounds;
    const productWindows: WindowFigures[] = [];
    const bareWindows: WindowFigures[] = [];
    const fleets: { product: ProductFleet[]; bare: BareFleet[] } = { product: [firstFleet], bare: [] };
    let identical = true;
    let senderCpuPct = 0;
    for (let round = 1; round <= rounds; round++) {
      ctx.log(`supervision: round ${round}/${rounds}: ${count} relays under Mediaplane, ${(warmupMs / 1000).toFixed(0)} s warm-up, ${seconds} s window`);
      const product = new ProductFleet(plane);
      fleets.product.push(product);
      await product.add(plans);
      const running = commandLine((await product.groups()).get(0)!);
      if (JSON.stringify(running.slice(1)) !== JSON.stringify(plans[0].job.args)) {
        if (identical) notes.push(`WARNING: the argv the product runs differs from buildFfmpegArgs of the same spec: ${running.slice(1).join(' ')}`);
        identical = false;
      }
      await sleep(warmupMs);
      const senderBefore = (await sampleGroups([sender.process.pid])).get(sender.process.pid)!;
      productWindows.push(await measureWindow(product, seconds, plane));
      const senderAfter = (await sampleGroups([sender.process.pid])).get(sender.process.pid)!;
      senderCpuPct += ((senderAfter.cpuSeconds - senderBefore.cpuSeconds) / ((senderAfter.at - senderBefore.at) / 1000)) * 100 / rounds;
      await product.stopAll();

      ctx.log(`supervision: round ${round}/${rounds}: the same ${count} argv lists as bare ffmpeg`);
      const bare = new BareFleet();
      fleets.bare.push(bare);
      await bare.add(plans);
      await sleep(warmupMs);
      bareWindows.push(await measureWindow(bare, seconds));
      await bare.stopAll();
    }
    await sender.stop();
    const mp = averageOf(productWindows);
    const raw = averageOf(bareWindows);

    const ratio = mp.perRelayCpuPct / raw.perRelayCpuPct;
    const p = mp.plane!;
    const first = firstMinute.plane!;
    const rssMaxBytes = Math.max(p.rssMaxBytes, first.rssMaxBytes);
    const perRound = (windows: WindowFigures[], figure: (w: WindowFigures) => number) => windows.map((w) => pct(figure(w))).join(', ');
    notes.push(
      `Supervision: ${count} relays (UDP in → UDP out on loopback, \`-c copy\`), each fed ~3.1 Mbit/s of 720p25 MPEG-TS by ONE paced sender (\`-re -stream_loop -1\`, tee to ${count} ports; it used ${pct(senderCpuPct, 1)} of a core). The product side is a real \`mediaplane server\` (API, reconciler, engine, embedded Postgres) with ${count} relay jobs stored and switched on; bare ffmpeg ran the same ${count} argv lists (buildFfmpegArgs of the same JobSpecs${identical ? ', checked identical to /proc/<pid>/cmdline of the supervised process' : ''}). The sides took turns, ${rounds} round(s) of a product window then a bare one, each ${seconds} s after ${(warmupMs / 1000).toFixed(0)} s of warm-up; the table has the averages. The rounds began when the server had run ${uptimeAtRounds.toFixed(0)} s; its first minute (the same ${count} relays, warm-up and window, from its start) read ${pct(first.cpuPct)}: V8 optimizing the relays' code paths on its compiler threads and, once, the memory reducer's full collections of the start-up heap. Per round: control plane ${perRound(productWindows, (w) => w.plane!.cpuPct)}; CPU per relay ${perRound(productWindows, (w) => w.perRelayCpuPct)} (Mediaplane) and ${perRound(bareWindows, (w) => w.perRelayCpuPct)} (bare). Machine CPU busy: ${pct(mp.machineBusyPct, 0)} (Mediaplane), ${pct(raw.machineBusyPct, 0)} (bare).`,
    );
    const retries = [fleets.product, fleets.bare].map((side) => side.reduce((sum, f) => sum + f.startRetries(), 0));
    const gaveUp = fleets.product.flatMap((f) => f.gaveUp);
    const failedStarts = fleets.bare.flatMap((f) => f.failedStarts);
    if (retries[0] || retries[1] || gaveUp.length) {
      notes.push(
        `Supervision: to get all ${count} relays running, the supervisor started ffmpeg again ${retries[0]} time(s)${gaveUp.length ? ` and gave up on ${gaveUp.length} start(s) (restart attempts used up: “${[...new Set(gaveUp)].slice(0, 2).join('”, “')}”; the benchmark switched those relays off and on again)` : ''}, and the benchmark started bare ffmpeg again ${retries[1]} time(s) (ffmpeg ended before any output${failedStarts.length ? `: “${[...new Set(failedStarts)].slice(0, 2).join('”, “')}”` : ''}); the windows measure running relays only.`,
      );
    }
    for (const [side, figures] of [['Mediaplane', mp], ['bare', raw]] as const) {
      if (figures.casualties.length) notes.push(`WARNING (${side}): relays that did not run the whole window: ${figures.casualties.slice(0, 5).join('; ')}${figures.casualties.length > 5 ? ' …' : ''}`);
    }
    return {
      rows: [
        {
          measurement: `Control plane CPU with ${count} relays running (the \`mediaplane server\` Node process, % of one core, ${seconds} s windows after its first minute)`,
          mediaplane: pct(p.cpuPct),
          bare: '— (nothing supervises)',
          target: '< 2 %',
          result: verdict(p.cpuPct < 2),
        },
        {
          measurement: `Control plane CPU in the server's first minute (the same ${count} relays, ${seconds} s window from ${(warmupMs / 1000).toFixed(0)} s after they start; V8 still warming up)`,
          mediaplane: pct(first.cpuPct),
          bare: '—',
          target: '—',
          result: 'info',
        },
        {
          measurement: `Control plane RSS with ${count} relays running (max over the windows, first minute included)`,
          mediaplane: `${mb(rssMaxBytes)} (end ${mb(p.rssEndBytes)})`,
          bare: '—',
          target: '< 250 MB',
          result: verdict(rssMaxBytes < 250 * 1024 * 1024),
        },
        {
          measurement: `CPU per relay (average of ${mp.relaysMeasured} / ${raw.relaysMeasured} process groups, % of one core)`,
          mediaplane: `${pct(mp.perRelayCpuPct)} (${ratio.toFixed(3)} × bare)`,
          bare: pct(raw.perRelayCpuPct),
          target: '≤ 1.05 × bare',
          result: verdict(ratio <= 1.05),
        },
        {
          measurement: `Embedded Postgres CPU with ${count} relays running (postmaster and backends, % of one core)`,
          mediaplane: pct(p.postgresCpuPct),
          bare: '—',
          target: '—',
          result: 'info',
        },
      ],
      notes,
    };
  },
};
