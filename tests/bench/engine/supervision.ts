import type { BenchContext, Measurement } from './context.ts';
import { mb, pct, verdict, type MeasurementResult } from './report.ts';
import type { ControlPlane } from './support/control-plane.ts';
import { BareFleet, planRelays, ProductFleet, type Fleet } from './support/fleet.ts';
import { commandLine, machineCpu, sampleGroups, sampleProcess, sampleProcessAndChildren, sleep, type CpuSample } from './support/processes.ts';

/**
 * 1. Supervision overhead: N live relays (UDP in → UDP out, streams copied) run by the product (a
 * real `mediaplane server`: reconciler, status writes, API process, embedded Postgres) and, at the
 * same time, N bare ffmpeg processes with the same argv but their own ports, all fed by ONE paced
 * sender. Both sides share every window, so a change of the machine's speed (a shared host drifts
 * by several per cent from minute to minute) weighs on both alike: taking turns left that drift in
 * the ratio. Over each window: the control plane's own CPU and memory, and each relay's CPU (its
 * process group), per side.
 *
 * The first window is the server's first minute (with the default 60 s), shown on a row of its own: in it V8 is still
 * optimizing the code the relays run (on its compiler threads) and, once, shrinks the heap the
 * start left (the memory reducer's full collections). That is the cost of a server starting, not
 * of supervising relays; the judged figures are the averages of the windows after it.
 */

interface SideFigures {
  /** Average over the relays that ran the whole window, % of one core. */
  perRelayCpuPct: number;
  relaysMeasured: number;
  casualties: string[];
}

interface WindowFigures {
  product: SideFigures;
  bare: SideFigures;
  machineBusyPct: number;
  plane: { cpuPct: number; rssMaxBytes: number; rssEndBytes: number; postgresCpuPct: number };
}

async function relayCpu(fleet: Fleet, groups0: Map<number, number>, groups1: Map<number, number>, relays0: Map<number, CpuSample>, relays1: Map<number, CpuSample & { pids: number[] }>): Promise<SideFigures> {
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
  return { perRelayCpuPct: measured ? (cpuSum / wallSum) * 100 : Number.NaN, relaysMeasured: measured, casualties: await fleet.casualties() };
}

async function measureWindow(product: Fleet, bare: Fleet, seconds: number, plane: ControlPlane): Promise<WindowFigures> {
  const groups0 = { product: await product.groups(), bare: await bare.groups() };
  const cpu0 = machineCpu();
  const relays0 = await sampleGroups([...groups0.product.values(), ...groups0.bare.values()]);
  const postmaster = plane.postmasterPid();
  const postgres0 = postmaster ? await sampleProcessAndChildren(postmaster) : undefined;
  const plane0 = sampleProcess(plane.pid);
  let rssMax = plane0.rssBytes;
  const end = plane0.at + seconds * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(1000, Math.max(0, end - performance.now())));
    rssMax = Math.max(rssMax, sampleProcess(plane.pid).rssBytes);
  }
  const plane1 = sampleProcess(plane.pid);
  const postgres1 = postmaster ? await sampleProcessAndChildren(postmaster) : undefined;
  const groups1 = { product: await product.groups(), bare: await bare.groups() };
  const relays1 = await sampleGroups([...groups1.product.values(), ...groups1.bare.values()]);
  const cpu1 = machineCpu();
  const wall = (plane1.at - plane0.at) / 1000;
  return {
    product: await relayCpu(product, groups0.product, groups1.product, relays0, relays1),
    bare: await relayCpu(bare, groups0.bare, groups1.bare, relays0, relays1),
    machineBusyPct: ((cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)) * 100,
    plane: {
      cpuPct: ((plane1.cpuSeconds - plane0.cpuSeconds) / wall) * 100,
      rssMaxBytes: Math.max(rssMax, plane1.rssBytes),
      rssEndBytes: plane1.rssBytes,
      // The postmaster and its backends (each backend leads a process group of its own).
      postgresCpuPct: postgres0 && postgres1 ? ((postgres1.cpuSeconds - postgres0.cpuSeconds) / ((postgres1.at - postgres0.at) / 1000)) * 100 : Number.NaN,
    },
  };
}

/** The windows as one: averages, the largest RSS, every casualty once. */
function averageOf(windows: WindowFigures[]): WindowFigures {
  const mean = (figure: (w: WindowFigures) => number) => windows.reduce((sum, w) => sum + figure(w), 0) / windows.length;
  const side = (of: (w: WindowFigures) => SideFigures): SideFigures => ({
    perRelayCpuPct: mean((w) => of(w).perRelayCpuPct),
    relaysMeasured: Math.min(...windows.map((w) => of(w).relaysMeasured)),
    casualties: [...new Set(windows.flatMap((w) => of(w).casualties))], // the same fleets in every window
  });
  return {
    product: side((w) => w.product),
    bare: side((w) => w.bare),
    machineBusyPct: mean((w) => w.machineBusyPct),
    plane: {
      cpuPct: mean((w) => w.plane.cpuPct),
      rssMaxBytes: Math.max(...windows.map((w) => w.plane.rssMaxBytes)),
      rssEndBytes: windows[windows.length - 1].plane.rssEndBytes,
      postgresCpuPct: mean((w) => w.plane.postgresCpuPct),
    },
  };
}

export const supervision: Measurement = {
  name: 'supervision',
  title: 'Supervision overhead',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const { relays: count, seconds, rounds } = ctx.options;
    const plane = await ctx.controlPlane();
    const plans = await planRelays(plane, ctx.ports, count, 0, 'overhead');
    // Bare ffmpeg's relays: jobs like the product's on ports of their own, stored (never switched on) only for their argv.
    const twins = await planRelays(plane, ctx.ports, count, count, 'overhead-bare');
    const sender = await ctx.startSender(plans.flatMap((plan, i) => [plan.inPort, twins[i].inPort]));
    await sender.flowing();
    const warmupMs = Math.min(10_000, Math.max(3_000, (seconds * 1000) / 6));
    const notes: string[] = [];

    ctx.log(`supervision: ${count} relays under Mediaplane and ${count} bare ffmpeg at the same time; ${(warmupMs / 1000).toFixed(0)} s warm-up, then ${1 + rounds} windows of ${seconds} s (the first after the server starts is shown apart)`);
    const product = new ProductFleet(plane);
    const bare = new BareFleet();
    await Promise.all([product.add(plans), bare.add(twins)]);
    const running = commandLine((await product.groups()).get(0)!);
    if (JSON.stringify(running.slice(1)) !== JSON.stringify(plans[0].job.args)) {
      notes.push(`WARNING: the argv the product runs differs from buildFfmpegArgs of the same spec: ${running.slice(1).join(' ')}`);
    }
    const samePortsAside = (a: string[], b: string[]) => a.length === b.length && a.every((arg, i) => arg.replace(/:\d+/g, ':<port>') === b[i].replace(/:\d+/g, ':<port>'));
    if (!samePortsAside(plans[0].job.args, twins[0].job.args)) notes.push('WARNING: bare ffmpeg\'s argv differs from the product\'s in more than its ports');
    await sleep(warmupMs);
    const senderBefore = (await sampleGroups([sender.process.pid])).get(sender.process.pid)!;
    ctx.log('supervision: the first window after the server starts');
    const firstWindow = await measureWindow(product, bare, seconds, plane);
    const uptimeAtWindows = (performance.now() - plane.startedAt) / 1000;
    const windows: WindowFigures[] = [];
    for (let round = 1; round <= rounds; round++) {
      ctx.log(`supervision: window ${round}/${rounds}`);
      windows.push(await measureWindow(product, bare, seconds, plane));
    }
    const senderAfter = (await sampleGroups([sender.process.pid])).get(sender.process.pid)!;
    const senderCpuPct = ((senderAfter.cpuSeconds - senderBefore.cpuSeconds) / ((senderAfter.at - senderBefore.at) / 1000)) * 100;
    await Promise.all([product.stopAll(), bare.stopAll()]);
    await sender.stop();

    const all = averageOf(windows);
    const mp = all.product;
    const raw = all.bare;
    const ratio = mp.perRelayCpuPct / raw.perRelayCpuPct;
    const p = all.plane;
    const first = firstWindow.plane;
    const rssMaxBytes = Math.max(p.rssMaxBytes, first.rssMaxBytes);
    const perWindow = (figure: (w: WindowFigures) => number) => windows.map((w) => pct(figure(w))).join(', ');
    notes.push(
      `Supervision: ${count} relays (UDP in → UDP out on loopback, \`-c copy\`) under Mediaplane and ${count} bare ffmpeg relays, running at the same time, each fed ~3.1 Mbit/s of 720p25 MPEG-TS by ONE paced sender (\`-re -stream_loop -1\`, tee to ${2 * count} ports, the two sides' ports taking turns; it used ${pct(senderCpuPct, 1)} of a core). The product side is a real \`mediaplane server\` (API, reconciler, engine, embedded Postgres) with ${count} relay jobs stored and switched on; bare ffmpeg ran the argv lists of ${count} more relay jobs (buildFfmpegArgs of JobSpecs that differ only in their ports; the product's argv checked identical to /proc/<pid>/cmdline of the supervised process). Both sides ran in every window, so a drift of the machine's speed weighs on both alike. After ${(warmupMs / 1000).toFixed(0)} s of warm-up, the first window after the server starts (its own row), then ${rounds} window(s) of ${seconds} s, which began when the server had run ${uptimeAtWindows.toFixed(0)} s; the table has their averages. In the first window V8 optimizes the relays' code paths on its compiler threads and, once, its memory reducer collects the start-up heap; the control plane read ${pct(first.cpuPct)} then. Per window: control plane ${perWindow((w) => w.plane.cpuPct)}; CPU per relay ${perWindow((w) => w.product.perRelayCpuPct)} (Mediaplane) and ${perWindow((w) => w.bare.perRelayCpuPct)} (bare); in the first window ${pct(firstWindow.product.perRelayCpuPct)} and ${pct(firstWindow.bare.perRelayCpuPct)}. Machine CPU busy: ${pct(all.machineBusyPct, 0)} (both sides and the sender).`,
    );
    const retries = [product.startRetries(), bare.startRetries()];
    const { gaveUp } = product;
    const { failedStarts } = bare;
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
          measurement: `Control plane CPU with ${count} relays running (the \`mediaplane server\` Node process, % of one core, ${seconds} s windows after its first)`,
          mediaplane: pct(p.cpuPct),
          bare: '— (nothing supervises)',
          target: '< 2 %',
          result: verdict(p.cpuPct < 2),
        },
        {
          measurement: `Control plane CPU in its first window after the server starts (the same ${count} relays, ${seconds} s from ${(warmupMs / 1000).toFixed(0)} s after they start; V8 still warming up)`,
          mediaplane: pct(first.cpuPct),
          bare: '—',
          target: '—',
          result: 'info',
        },
        {
          measurement: `Control plane RSS with ${count} relays running (max over the windows, the first included)`,
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
