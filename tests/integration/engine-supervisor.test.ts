import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuMeter, processGroupMembers, sampleProcessGroup } from '../../engine/stats/process-tree.ts';
import { ProcessSupervisor, type ProcessSupervisorOptions, type SupervisorEvents } from '../../engine/supervisor/process-supervisor.ts';
import { EventRecorder, FAKE } from '../fixtures/fake-programs/harness.ts';

type AnyEvent = SupervisorEvents[keyof SupervisorEvents];

const running: ProcessSupervisor[] = [];

function supervise(script: string, args: string[] = [], options: Partial<ProcessSupervisorOptions> = {}) {
  const supervisor = new ProcessSupervisor({
    id: 'fake-job',
    command: () => ({ file: '/bin/sh', args: [script, ...args] }),
    staleTimeoutMs: 10_000,
    restart: { attempts: 3 },
    stopGraceMs: 1_000,
    ...options,
  });
  const recorder = new EventRecorder<AnyEvent>();
  for (const type of ['state', 'exit', 'spawn', 'notice', 'log', 'progress'] as const) supervisor.on(type, recorder.push);
  running.push(supervisor);
  return { supervisor, recorder };
}

const is =
  <T extends AnyEvent['type']>(type: T, match: (e: Extract<AnyEvent, { type: T }>) => boolean = () => true) =>
  (e: AnyEvent): boolean =>
    e.type === type && match(e as Extract<AnyEvent, { type: T }>);

/** A process that is gone, or a zombie waiting to be reaped (it runs nothing and holds nothing). */
function gone(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

describe('ProcessSupervisor states', () => {
  it('is starting at spawn and running only from the first progress block', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint);
    supervisor.start();
    const spawned = (await recorder.waitFor(is('spawn'), { timeoutMs: 5_000, what: 'spawn' })) as SupervisorEvents['spawn'];
    const states = recorder.events.map((r) => r.event).filter((e) => e.type === 'state');
    expect(states.map((e) => (e as SupervisorEvents['state']).state)).toEqual(['starting']);
    const runningEvent = await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000, what: 'running' });
    expect(runningEvent).toMatchObject({ pid: spawned.pid, desired: 'running' });
    expect(states[0]).not.toHaveProperty('pid');
    const order = recorder.events.map((r) => r.event.type).filter((t) => t === 'progress' || t === 'state');
    // starting at spawn; running with (and not before) the first progress block
    expect(order.slice(0, 3)).toEqual(['state', 'state', 'progress']);
    expect(recorder.events.filter((r) => r.event.type === 'progress')).toHaveLength(1);
    expect(supervisor.pid).toBe(spawned.pid);
    expect(supervisor.desired).toBe('running');
  });

  it('starts again at once, using no attempt and counting no restart, a process that ended while starting when asked to (a longer probe)', async () => {
    let spawns = 0;
    const asked: string[] = [];
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], {
      // The first two processes end at once, as ffmpeg does when probing found too little; the third runs.
      command: () => (++spawns <= 2 ? { file: '/bin/sh', args: ['-c', 'echo "[tee @ 0x1] [error] dimensions not set" >&2; exit 1'] } : { file: '/bin/sh', args: [FAKE.ignoreSigint] }),
      restart: { attempts: 0 },
      retryStart: ({ reason }) => {
        asked.push(reason);
        return 'probing longer';
      },
    });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 10_000, what: 'running' });
    expect(asked).toEqual(['probe_incomplete', 'probe_incomplete']);
    const exits = recorder.events.map((r) => r.event).filter((e) => e.type === 'exit');
    expect(exits).toMatchObject([
      { reason: 'probe_incomplete', willRestart: true, startRetry: true },
      { reason: 'probe_incomplete', willRestart: true, startRetry: true },
    ]);
    // No restart state, no backoff, nothing counted: it was still starting.
    const states = recorder.events.map((r) => r.event).filter((e) => e.type === 'state').map((e) => (e as SupervisorEvents['state']).state);
    expect(states).toEqual(['starting', 'running']);
    expect(supervisor.restarts).toBe(0);
    // The reason follows the exit in the log, before the next start.
    const notices = recorder.events.map((r) => r.event).filter((e) => e.type === 'notice').map((e) => (e as SupervisorEvents['notice']).text);
    const exited = notices.findIndex((t) => /exited \(code 1\): probe_incomplete/.test(t));
    expect(notices.slice(exited, exited + 3).map((t) => t.split(':')[0])).toEqual([expect.stringMatching(/^process \d+ exited/), 'probing longer', expect.stringMatching(/^started pid/)]);
  });

  it('leaves desired running when the process crashes, and sets it to stopped on stop', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint);
    supervisor.start();
    const first = (await recorder.waitFor(is('spawn'), { timeoutMs: 5_000 })) as SupervisorEvents['spawn'];
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    const mark = recorder.mark;
    process.kill(first.pid, 'SIGKILL');
    const exit = (await recorder.waitFor(is('exit'), { since: mark, timeoutMs: 5_000 })) as SupervisorEvents['exit'];
    expect(exit).toMatchObject({ reason: 'killed', signal: 'SIGKILL', willRestart: true });
    expect(supervisor.desired).toBe('running');
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { since: mark, timeoutMs: 5_000, what: 'running again' });
    expect(supervisor.restarts).toBe(1);
    await supervisor.stop();
    expect(supervisor.desired).toBe('stopped');
    expect(supervisor.state).toBe('stopped');
  });

  it('stops a VOD that ended (finished) and restarts a live one', async () => {
    const vod = supervise(FAKE.progressThenExit, ['2', '0'], { restart: { attempts: 3, onFinish: false } });
    vod.supervisor.start();
    const finished = await vod.recorder.waitFor(is('state', (e) => e.state === 'stopped'), { timeoutMs: 5_000, what: 'stopped' });
    expect(finished).toMatchObject({ reason: 'finished', desired: 'stopped' });

    const live = supervise(FAKE.progressThenExit, ['2', '0'], { restart: { attempts: 3, onFinish: true, backoff: () => 50 } });
    live.supervisor.start();
    const exit = await live.recorder.waitFor(is('exit'), { timeoutMs: 5_000 });
    expect(exit).toMatchObject({ reason: 'finished', willRestart: true });
    await live.recorder.waitFor(is('spawn'), { since: live.recorder.mark, timeoutMs: 5_000, what: 'a second spawn' });
  });

  it('runs out of restart attempts and is failed with the classified reason', async () => {
    const line = '[error] tcp://127.0.0.1:9: Connection refused';
    const { supervisor, recorder } = supervise(FAKE.progressThenExit, ['0', '1', line], { restart: { attempts: 2, backoff: () => 50 } });
    supervisor.start();
    const failed = await recorder.waitFor(is('state', (e) => e.state === 'failed'), { timeoutMs: 10_000, what: 'failed' });
    expect(failed).toMatchObject({ reason: 'connection_refused', detail: 'tcp://127.0.0.1:9: Connection refused', desired: 'running' });
    const exits = recorder.events.map((r) => r.event).filter((e) => e.type === 'exit') as Array<SupervisorEvents['exit']>;
    expect(exits.map((e) => e.willRestart)).toEqual([true, true, false]);
    const notices = recorder.events.map((r) => r.event).filter((e) => e.type === 'notice').map((e) => (e as SupervisorEvents['notice']).text);
    expect(notices).toContain('restart attempt 1 of 2 in 50 ms');
    expect(notices).toContain('restart attempt 2 of 2 in 50 ms');
    expect(notices).toContain('restart attempts (2) used up: failed: connection_refused');
  });

  it('never restarts with 0 attempts', async () => {
    const { supervisor, recorder } = supervise(FAKE.progressThenExit, ['1', '3'], { restart: { attempts: 0 } });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'failed'), { timeoutMs: 5_000, what: 'failed' });
    expect(recorder.events.filter((r) => r.event.type === 'spawn')).toHaveLength(1);
    expect(supervisor.lastExit).toMatchObject({ reason: 'crashed', code: 3, willRestart: false });
  });

  it('names a program that cannot be spawned spawn_failed', async () => {
    const supervisor = new ProcessSupervisor({
      id: 'missing-program',
      command: () => ({ file: '/nonexistent/mediaplane/ffmpeg', args: [] }),
      staleTimeoutMs: 5_000,
      restart: { attempts: 0 },
      stopGraceMs: 500,
    });
    running.push(supervisor);
    const recorder = new EventRecorder<AnyEvent>();
    supervisor.on('state', recorder.push);
    supervisor.start();
    const failed = await recorder.waitFor(is('state', (e) => e.state === 'failed'), { timeoutMs: 5_000 });
    expect(failed).toMatchObject({ reason: 'spawn_failed' });
    expect((failed as SupervisorEvents['state']).detail).toContain('ENOENT');
  });

  it('stops while waiting to restart without starting anything', async () => {
    const { supervisor, recorder } = supervise(FAKE.progressThenExit, ['0', '1'], { restart: { attempts: 3, backoff: () => 60_000 } });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'restarting'), { timeoutMs: 5_000 });
    await supervisor.stop();
    expect(supervisor.state).toBe('stopped');
    expect(recorder.events.filter((r) => r.event.type === 'spawn')).toHaveLength(1);
  });
});

describe('ProcessSupervisor stop and restart', () => {
  it('stops a program that ignores SIGINT within the grace period and leaves nothing of its group', async () => {
    const stopGraceMs = 1_000;
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], { stopGraceMs });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    const pgid = supervisor.pgid!;
    expect((await processGroupMembers(pgid, { fresh: true })).length).toBeGreaterThanOrEqual(1);
    const t0 = performance.now();
    await supervisor.stop();
    const took = performance.now() - t0;
    console.log(`stop of a SIGINT-ignoring program took ${took.toFixed(0)} ms (grace ${stopGraceMs} ms)`);
    expect(took).toBeGreaterThanOrEqual(stopGraceMs - 50);
    expect(took).toBeLessThan(stopGraceMs + 1_500);
    expect(supervisor.state).toBe('stopped');
    expect(supervisor.lastExit).toMatchObject({ reason: 'stopped', signal: 'SIGKILL' });
    expect(await processGroupMembers(pgid, { fresh: true })).toEqual([]);
    const notices = recorder.events.map((r) => r.event).filter((e) => e.type === 'notice').map((e) => (e as SupervisorEvents['notice']).text);
    expect(notices.some((t) => t.includes('still there 1000 ms after SIGINT: SIGKILL'))).toBe(true);
  });

  it('takes the grandchildren along when it stops a job', async () => {
    const { supervisor, recorder } = supervise(FAKE.spawnGrandchild);
    supervisor.start();
    const line = (await recorder.waitFor(is('log', (e) => e.raw.includes('grandchild')), { timeoutMs: 5_000 })) as SupervisorEvents['log'];
    const grandchild = Number(/grandchild (\d+)/.exec(line.raw)![1]);
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    const pgid = supervisor.pgid!;
    expect((await processGroupMembers(pgid, { fresh: true })).map((p) => p.pid)).toContain(grandchild);
    await supervisor.stop();
    // The leader left on SIGINT; its grandchild ignored SIGINT and went only with the group's SIGKILL.
    expect(supervisor.lastExit).toMatchObject({ reason: 'stopped', code: 0 });
    // SIGKILLed with the group as the leader exited; on a loaded machine the kernel may take a moment to end it.
    await expect.poll(() => gone(grandchild), { timeout: 2_000, interval: 20 }).toBe(true);
    await expect.poll(() => processGroupMembers(pgid, { fresh: true }), { timeout: 2_000, interval: 20 }).toEqual([]);
  });

  it('takes the grandchildren along when the leader dies on its own', async () => {
    const { supervisor, recorder } = supervise(FAKE.spawnGrandchild, [], { restart: { attempts: 0 } });
    supervisor.start();
    const line = (await recorder.waitFor(is('log', (e) => e.raw.includes('grandchild')), { timeoutMs: 5_000 })) as SupervisorEvents['log'];
    const grandchild = Number(/grandchild (\d+)/.exec(line.raw)![1]);
    const pgid = supervisor.pgid!;
    process.kill(pgid, 'SIGKILL');
    await recorder.waitFor(is('state', (e) => e.state === 'failed'), { timeoutMs: 5_000 });
    // SIGKILLed with the group as the leader died; on a loaded machine the kernel may take a moment to end it.
    await expect.poll(() => gone(grandchild), { timeout: 2_000, interval: 20 }).toBe(true);
    await expect.poll(() => processGroupMembers(pgid, { fresh: true }), { timeout: 2_000, interval: 20 }).toEqual([]);
  });

  it('restarts softly (SIGINT, grace) and hard (SIGKILL at once), keeping desired running', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], { stopGraceMs: 800 });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });

    let mark = recorder.mark;
    let t0 = performance.now();
    await supervisor.restart('soft');
    const soft = performance.now() - t0;
    expect(soft).toBeGreaterThanOrEqual(750);
    expect(recorder.events.slice(mark).map((r) => r.event).find((e) => e.type === 'state')).toMatchObject({ state: 'restarting', desired: 'running' });
    expect(supervisor.lastExit).toMatchObject({ reason: 'stopped', willRestart: true });
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { since: mark, timeoutMs: 5_000 });

    mark = recorder.mark;
    t0 = performance.now();
    await supervisor.restart('hard');
    const hard = performance.now() - t0;
    console.log(`soft restart ${soft.toFixed(0)} ms (grace 800 ms), hard restart ${hard.toFixed(0)} ms`);
    expect(hard).toBeLessThan(750);
    expect(supervisor.lastExit).toMatchObject({ reason: 'stopped', signal: 'SIGKILL', willRestart: true });
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { since: mark, timeoutMs: 5_000 });
    expect(supervisor.restarts).toBe(2);
    expect(supervisor.desired).toBe('running');
  });
});

describe('ProcessSupervisor start and restart from rest', () => {
  it('restarts a stopped job by starting it, as often as asked', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], { stopGraceMs: 300 });
    for (let i = 0; i < 3; i++) {
      const mark = recorder.mark;
      await supervisor.restart('soft');
      expect(supervisor.desired).toBe('running');
      await recorder.waitFor(is('state', (e) => e.state === 'running'), { since: mark, timeoutMs: 5_000 });
      // a start from rest is not a restart of a running job
      expect(supervisor.restarts).toBe(0);
      await supervisor.stop();
    }
  });

  it('starts again what is being stopped when start comes in the meantime', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], { stopGraceMs: 500 });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    const mark = recorder.mark;
    const stopping = supervisor.stop();
    expect(supervisor.state).toBe('stopping');
    supervisor.start();
    await stopping;
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { since: mark, timeoutMs: 5_000 });
    const states = recorder.events.slice(mark).map((r) => r.event).filter((e) => e.type === 'state').map((e) => (e as SupervisorEvents['state']).state);
    expect(states).toEqual(['stopping', 'starting', 'running']);
  });
});

describe('ProcessSupervisor hang detection', () => {
  it('kills a program that makes no progress and starts it again within the stale timeout + 2 s', async () => {
    const staleTimeoutMs = 1_500;
    const { supervisor, recorder } = supervise(FAKE.silentHang, [], { staleTimeoutMs });
    supervisor.start();
    const first = await recorder.waitFor(is('spawn'), { timeoutMs: 5_000 });
    const firstAt = recorder.events.find((r) => r.event === first)!.at;
    const exit = (await recorder.waitFor(is('exit'), { timeoutMs: staleTimeoutMs + 3_000, what: 'the hang exit' })) as SupervisorEvents['exit'];
    expect(exit).toMatchObject({ reason: 'hang', willRestart: true, signal: 'SIGKILL' });
    expect(exit.detail).toBe('no progress for 1.5 s: killed by the supervisor');
    const second = await recorder.waitFor(is('spawn', (e) => e.pid !== (first as SupervisorEvents['spawn']).pid), { timeoutMs: 4_000, what: 'the restart' });
    const took = recorder.events.find((r) => r.event === second)!.at - firstAt;
    console.log(`silent hang killed and restarted ${took.toFixed(0)} ms after its start (stale timeout ${staleTimeoutMs} ms)`);
    expect(took).toBeLessThan(staleTimeoutMs + 2_000);
    expect(gone((first as SupervisorEvents['spawn']).pid)).toBe(true);
  });

  it('keeps a process alive as long as its progress moves', async () => {
    const { supervisor, recorder } = supervise(FAKE.ignoreSigint, [], { staleTimeoutMs: 700 });
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    // ten progress blocks (200 ms apart) take about three stale timeouts
    const mark = recorder.mark;
    await recorder.waitFor(
      () => recorder.events.slice(mark).filter((r) => r.event.type === 'progress').length >= 10,
      { since: mark, timeoutMs: 10_000, what: 'ten progress blocks' },
    );
    expect(recorder.events.some((r) => r.event.type === 'exit')).toBe(false);
  });
});

describe('process tree stats', () => {
  it('samples CPU and RSS of the whole group from /proc', async () => {
    const { supervisor, recorder } = supervise(FAKE.spawnGrandchild);
    supervisor.start();
    await recorder.waitFor(is('state', (e) => e.state === 'running'), { timeoutMs: 5_000 });
    const pgid = supervisor.pgid!;
    const group = await sampleProcessGroup(pgid, { fresh: true });
    expect(group.pids).toContain(pgid);
    expect(group.pids.length).toBeGreaterThanOrEqual(2); // the shell and its grandchild (and maybe a sleep)
    expect(group.rssBytes).toBeGreaterThan(100_000);
    const meter = new CpuMeter(pgid);
    const first = await meter.sample();
    expect(first.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(first.rssBytes).toBeGreaterThan(100_000);
  });
});
