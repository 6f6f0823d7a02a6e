import type { BenchContext, Measurement } from './context.ts';
import { ms, verdict, type MeasurementResult } from './report.ts';
import { planRelays } from './support/fleet.ts';
import { median, sleep } from './support/processes.ts';
import { describeFailures, timeBareStart } from './support/starts.ts';
import { OutputWatch } from './support/udp.ts';

/** The probing options the product gives ffmpeg for an input, as a phrase for the notes. */
export function probingOf(args: string[]): string {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const duration = value('-analyzeduration');
  const size = value('-probesize');
  if (!duration && !size) return "ffmpeg's default probing (analyzeduration 5 s, which ffmpeg 5.1's MPEG-TS demuxer always reads to the end)";
  return `-analyzeduration ${duration ?? 'default'} µs, -probesize ${size ?? 'default'} bytes`;
}

/**
 * 2. Start latency: from the start request to the first output datagram on a UDP receiver on
 * loopback. For Mediaplane the clock starts just before `active = true` is written to the job's
 * row (then notified, as the API does); for bare ffmpeg just before it is spawned with the same
 * argv. Both read the same paced UDP sender, which runs all along, so every start joins the stream
 * somewhere in a GOP. The product's share (request → ffmpeg spawned) is read from the supervisor's
 * "started pid" line in the job log.
 */
export const startLatency: Measurement = {
  name: 'start',
  title: 'Start latency',
  async run(ctx: BenchContext): Promise<MeasurementResult> {
    const n = ctx.options.starts;
    const plane = await ctx.controlPlane();
    const [plan] = await planRelays(plane, ctx.ports, 1, 0, 'start-latency');
    const id = plan.job.row.id;
    const sender = await ctx.startSender([plan.inPort]);
    await sender.flowing();
    const watch = await OutputWatch.open(plan.outPort);
    const product: number[] = [];
    const productShare: number[] = [];
    let productRetried = 0;
    const bare: number[] = [];
    const productKeyframe: number[] = [];
    const bareKeyframe: number[] = [];
    const bareFailures: string[] = [];
    try {
      for (let i = 0; i < n; i++) {
        // Each start at a random point of the source's 1 s GOP: a loop of fixed period would start
        // one side always at about the same point (seen as a steady 170 ms between the sides).
        await sleep(Math.random() * 1_000);
        // Mediaplane: the row, the notification, the reconciler, the runner, ffmpeg (started again by the supervisor if it ends).
        const requestedAt = Date.now();
        const t0 = performance.now();
        await plane.setActive([id], true);
        const first = await watch.next({ since: t0, timeoutMs: 60_000, what: `Mediaplane start ${i + 1}` });
        product.push(first.at - t0);
        const keyframe = await watch.next({ since: t0, keyframe: true, timeoutMs: 30_000, what: `Mediaplane start ${i + 1}: a keyframe` });
        productKeyframe.push(keyframe.at - t0);
        const firstAt = requestedAt + (first.at - t0);
        const spawns = (await plane.spawnTimes(plan.job.row, requestedAt - 1)).filter((t) => t <= firstAt);
        if (spawns.length) productShare.push(spawns[0] - requestedAt);
        if (spawns.length > 1) productRetried++;
        await plane.setActive([id], false);
        await plane.waitStopped([id], 30_000);
        await sleep(300);

        // Bare ffmpeg, the same argv.
        await sleep(Math.random() * 1_000);
        const start = await timeBareStart(plan.job.args, watch);
        if (start.ok) bare.push(start.ms);
        else bareFailures.push(start.failure);
        if (start.ok && start.keyframeMs !== undefined) bareKeyframe.push(start.keyframeMs);
        await sleep(300);
        ctx.log(`start ${i + 1}/${n}: Mediaplane ${ms(product[i])}${spawns.length > 1 ? ` (${spawns.length} ffmpeg starts)` : ''}, bare ${start.ok ? ms(start.ms) : `ended before any output: ${start.failure}`}`);
      }
    } finally {
      await plane.setActive([id], false);
      await watch.close();
      await sender.stop();
    }
    const mp = median(product);
    const raw = median(bare);
    const share = median(productShare);
    ctx.shared.bareStartMs = raw;
    const ratio = mp / raw;
    const bareFailed = describeFailures(bareFailures, n);
    return {
      rows: [
        {
          measurement: `Start latency: start request → first output datagram (UDP relay, median of ${n})`,
          mediaplane: `${ms(mp)} (${ratio.toFixed(2)} × bare; request → spawn ${ms(share)}${productRetried ? `; ${productRetried} of ${n} needed more than one ffmpeg start` : ''})`,
          bare: `${ms(raw)} (spawn → first datagram${bareFailed ? `; median of the ${bare.length} that delivered; ${bareFailed}` : ''})`,
          target: '< 500 ms and ≤ 1.3 × bare',
          result: verdict(mp < 500 && ratio <= 1.3),
        },
        {
          measurement: `Start latency: start request → first keyframe out (where a player can begin; median of ${n})`,
          mediaplane: ms(median(productKeyframe)),
          bare: `${ms(median(bareKeyframe))} (spawn → first keyframe)`,
          target: '—',
          result: 'info',
        },
        {
          measurement: 'Start latency: the product’s own share (request → ffmpeg spawned)',
          mediaplane: ms(share),
          bare: '—',
          target: '—',
          result: 'info',
        },
      ],
      notes: [
        `Start latency: Mediaplane's clock starts just before the UPDATE that sets active = true (followed by the NOTIFY the reconciler listens to), bare ffmpeg's just before the spawn; both stop at the first datagram on a UDP socket bound to the output port. Both read the same paced UDP MPEG-TS sender (720p25 H.264, a keyframe every second), which runs all along; each start waits a random 0–1 s first, so it joins the stream at a random point of a GOP. ffmpeg's part is probing the input (the product's argv: ${probingOf(plan.job.args)}); a relay whose outputs are all MPEG-TS streams forwards from the first packet after probing (\`-copyinkf\`, as a TS relay does: a receiver joining a multicast mid-GOP waits for the keyframe itself), so the first datagram does not wait for a keyframe, and the third row shows when the first keyframe passed (the same on both sides: identical argv). Mediaplane's own share (request → "started pid" in the job log) is the second row. A bare start that ends before any output is not timed (nothing starts it again); the product's supervisor starts such a process again after its backoff, and that time counts.`,
      ],
    };
  },
};
