import { afterEach, describe, expect, it } from 'vitest';
import { FailoverPolicy, probeTarget, type FailoverPolicyOptions } from '../../engine/failover.ts';
import { EventRecorder } from '../fixtures/fake-programs/harness.ts';

type Switch = { to: 'primary' | 'failover'; reason: string };
const policies: FailoverPolicy[] = [];
afterEach(() => policies.splice(0).forEach((p) => p.stop()));

function policy(options: Partial<FailoverPolicyOptions> & { healthy?: () => boolean } = {}) {
  const switches = new EventRecorder<Switch>();
  let probes = 0;
  const p = new FailoverPolicy({
    switchTimeoutMs: 400,
    returnAfterHealthyMs: 300,
    probeIntervalMs: 50,
    openingAllowanceMs: 0,
    probe: async () => {
      probes++;
      return options.healthy ? options.healthy() : true;
    },
    onSwitch: (to, reason) => switches.push({ to, reason }),
    ...options,
  });
  policies.push(p);
  return { p, switches, probes: () => probes };
}

describe('FailoverPolicy', () => {
  it('switches to the failover input when the primary gives no progress for the switch timeout', async () => {
    const { p, switches } = policy({ healthy: () => false });
    p.start();
    p.progress();
    const t0 = performance.now();
    const first = await switches.waitFor(() => true, { timeoutMs: 2_000 });
    const took = performance.now() - t0;
    expect(first.to).toBe('failover');
    expect(first.reason).toMatch(/^no progress from the primary input for 0\.\d s \(switch timeout 0\.4 s\)$/);
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(1_000);
    expect(p.active).toBe('failover');
  });

  it('stays on a primary whose progress keeps coming', async () => {
    const { p, switches } = policy();
    p.start();
    const ticker = setInterval(() => p.progress(), 50);
    await new Promise<void>((resolve) => setTimeout(resolve, 600)); // three switch timeouts of steady progress
    clearInterval(ticker);
    expect(switches.events).toEqual([]);
    expect(p.active).toBe('primary');
  });

  it('gives a primary that has not delivered yet the opening allowance', async () => {
    const { p, switches } = policy({ openingAllowanceMs: 600, healthy: () => false });
    p.start();
    const t0 = performance.now();
    const first = await switches.waitFor(() => true, { timeoutMs: 3_000 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590);
    expect(first.reason).toMatch(/^the primary input delivered nothing for 0\.6 s/);
  });

  it('applies the plain switch timeout as soon as the primary has delivered, not at the end of the allowance', async () => {
    const { p, switches } = policy({ openingAllowanceMs: 5_000, healthy: () => false });
    p.start();
    p.progress();
    const t0 = performance.now();
    await switches.waitFor(() => true, { timeoutMs: 3_000, what: 'a switch one switch timeout after the last progress' });
    expect(performance.now() - t0).toBeLessThan(1_500);
  });

  it('returns to the primary once it has answered the probes for the healthy period', async () => {
    let healthy = false;
    const { p, switches } = policy({ healthy: () => healthy });
    p.start();
    await switches.waitFor((s) => s.to === 'failover', { timeoutMs: 2_000 });
    const t0 = performance.now();
    healthy = true;
    const back = await switches.waitFor((s) => s.to === 'primary', { timeoutMs: 3_000 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect(back.reason).toMatch(/^primary input healthy for 0\.\d s$/);
    expect(p.active).toBe('primary');
  });

  it('starts the healthy period again after a failed probe', async () => {
    const answers = [true, true, false, true, true, true, true, true, true, true, true, true, true];
    let i = 0;
    const { p, switches } = policy({ probeIntervalMs: 100, returnAfterHealthyMs: 250, healthy: () => answers[Math.min(i++, answers.length - 1)] });
    p.start();
    await switches.waitFor((s) => s.to === 'failover', { timeoutMs: 2_000 });
    await switches.waitFor((s) => s.to === 'primary', { timeoutMs: 5_000 });
    // true, true (100 ms healthy), false (reset), then true × 4 reach 250 ms: seven probes at least
    expect(i).toBeGreaterThanOrEqual(7);
  });

  it('neither switches nor probes once stopped', async () => {
    const { p, switches, probes } = policy();
    p.start();
    p.stop();
    await new Promise<void>((resolve) => setTimeout(resolve, 400)); // two switch timeouts
    expect(switches.events).toEqual([]);
    expect(probes()).toBe(0);
  });
});

describe('probeTarget', () => {
  it('adds the token to http, rtmp and rtsp URLs and opens files through the file protocol', () => {
    expect(probeTarget({ type: 'uri', uri: 'http://cdn.example/live.m3u8', token: 's3cret' })).toEqual({ kind: 'url', url: 'http://cdn.example/live.m3u8?token=s3cret' });
    expect(probeTarget({ type: 'uri', uri: 'udp://239.1.1.1:5000', token: 'ignored' })).toEqual({ kind: 'url', url: 'udp://239.1.1.1:5000' });
    expect(probeTarget({ type: 'uri', uri: '/media/in.ts' })).toEqual({ kind: 'url', url: 'file:/media/in.ts' });
    expect(probeTarget({ type: 'storage', path: '/storage/a b.ts' })).toEqual({ kind: 'url', url: 'file:/storage/a b.ts' });
    expect(probeTarget({ type: 'args', source: 'dvb', args: ['-f', 'dvb', '-i', 'x'] })).toEqual({ kind: 'args', args: ['-f', 'dvb', '-i', 'x'] });
  });
});
