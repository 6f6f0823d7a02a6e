import { describe, expect, it } from 'vitest';
import { deriveUptimes, type UptimeEvent } from '../../api/services/job-uptime.ts';

/** A day at noon, in seconds; events are given as offsets from it. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const s = (offsetSeconds: number) => T0 / 1000 + offsetSeconds;
let nextId = 1;
const ev = (offsetSeconds: number, type: string, reason: string | null = null): UptimeEvent => ({ id: nextId++, at: new Date(T0 + offsetSeconds * 1000), type, reason });
const at = (offsetSeconds: number) => T0 + offsetSeconds * 1000;

describe('deriveUptimes', () => {
  it('a crash and an automatic restart: up until the exit, down until the next UP, up again (open)', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(100, 'EXIT', 'input_unreachable'), ev(103, 'UP')];
    const { uptimes, downtimes } = deriveUptimes(events, at(200));
    expect(uptimes).toEqual([
      { from: s(1), until: s(100), durationSeconds: 99 },
      { from: s(103), durationSeconds: 97 },
    ]);
    expect(downtimes).toEqual([{ from: s(100), until: s(103), durationSeconds: 3, reason: 'input_unreachable' }]);
  });

  it('several crashes before it comes back make one downtime, with the reason of the first', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(10, 'EXIT', 'hang'), ev(12, 'EXIT', 'input_unreachable'), ev(15, 'EXIT', 'input_unreachable'), ev(20, 'UP')];
    const { downtimes } = deriveUptimes(events, at(30));
    expect(downtimes).toEqual([{ from: s(10), until: s(20), durationSeconds: 10, reason: 'hang' }]);
  });

  it('a failover and the return to the primary keep one uptime: the job goes on without a gap', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(50, 'FAILOVER', 'failover'), ev(50.4, 'UP'), ev(200, 'FAILOVER', 'primary'), ev(200.3, 'UP')];
    const { uptimes, downtimes } = deriveUptimes(events, at(300));
    expect(uptimes).toEqual([{ from: s(1), durationSeconds: 299 }]);
    expect(downtimes).toEqual([]);
  });

  it('a job stopped by its operator is off, not down; started again it has a new uptime', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(60, 'STOP'), ev(3600, 'START'), ev(3601, 'UP'), ev(3700, 'STOP')];
    const { uptimes, downtimes } = deriveUptimes(events, at(7200));
    expect(uptimes).toEqual([
      { from: s(1), until: s(60), durationSeconds: 59 },
      { from: s(3601), until: s(3700), durationSeconds: 99 },
    ]);
    expect(downtimes).toEqual([]);
  });

  it('stopping a job that is down ends its downtime', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(10, 'EXIT', 'crashed'), ev(40, 'STOP')];
    expect(deriveUptimes(events, at(100)).downtimes).toEqual([{ from: s(10), until: s(40), durationSeconds: 30, reason: 'crashed' }]);
  });

  it('a failure after the restart attempts ran out is an open downtime until someone acts', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(30, 'EXIT', 'input_unreachable'), ev(31, 'EXIT', 'input_unreachable'), ev(33, 'EXIT', 'input_unreachable'), ev(33, 'FAILURE', 'input_unreachable')];
    const { uptimes, downtimes } = deriveUptimes(events, at(600));
    expect(uptimes).toEqual([{ from: s(1), until: s(30), durationSeconds: 29 }]);
    expect(downtimes).toEqual([{ from: s(30), durationSeconds: 570, reason: 'input_unreachable' }]);
    expect('until' in downtimes[0]).toBe(false);
  });

  it('a job that never came up (a configuration it cannot run) is down from its failure', () => {
    const events = [ev(0, 'START'), ev(0, 'FAILURE', 'invalid_config')];
    expect(deriveUptimes(events, at(10))).toEqual({ uptimes: [], downtimes: [{ from: s(0), durationSeconds: 10, reason: 'invalid_config' }] });
  });

  it('starting is neither up nor down: a start counts from the first UP', () => {
    const events = [ev(0, 'START'), ev(2, 'UP')];
    expect(deriveUptimes(events, at(10))).toEqual({ uptimes: [{ from: s(2), durationSeconds: 8 }], downtimes: [] });
    expect(deriveUptimes([ev(0, 'START')], at(10))).toEqual({ uptimes: [], downtimes: [] });
  });

  it('an ordered restart keeps the uptime; one that does not come back is down from its exit', () => {
    const kept = deriveUptimes([ev(0, 'START'), ev(1, 'UP'), ev(20, 'RESTART', 'hard'), ev(20.5, 'UP')], at(60));
    expect(kept).toEqual({ uptimes: [{ from: s(1), durationSeconds: 59 }], downtimes: [] });
    const lost = deriveUptimes([ev(0, 'START'), ev(1, 'UP'), ev(20, 'RESTART', 'soft'), ev(36, 'EXIT', 'hang')], at(60));
    expect(lost.uptimes).toEqual([{ from: s(1), until: s(36), durationSeconds: 35 }]);
    expect(lost.downtimes).toEqual([{ from: s(36), durationSeconds: 24, reason: 'hang' }]);
  });

  it('a recovery after the control plane died ends the uptime at the new start and is down until the job is up again', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(500, 'START', 'recovered'), ev(501, 'UP')];
    const { uptimes, downtimes } = deriveUptimes(events, at(600));
    expect(uptimes).toEqual([
      { from: s(1), until: s(500), durationSeconds: 499 },
      { from: s(501), durationSeconds: 99 },
    ]);
    expect(downtimes).toEqual([{ from: s(500), until: s(501), durationSeconds: 1, reason: 'recovered' }]);
  });

  it('a VOD or batch that finished is off, not down', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(90, 'STOP', 'finished')];
    expect(deriveUptimes(events, at(1000))).toEqual({ uptimes: [{ from: s(1), until: s(90), durationSeconds: 89 }], downtimes: [] });
  });

  it('a process that dies while being stopped opens no downtime', () => {
    const events = [ev(0, 'START'), ev(1, 'UP'), ev(10, 'STOP'), ev(10.2, 'EXIT', 'crashed')];
    expect(deriveUptimes(events, at(100)).downtimes).toEqual([]);
  });

  it('when older events were purged, an exit first still shows the job was on', () => {
    const events = [ev(5, 'EXIT', 'input_unreachable'), ev(8, 'UP')];
    expect(deriveUptimes(events, at(10))).toEqual({
      uptimes: [{ from: s(8), durationSeconds: 2 }],
      downtimes: [{ from: s(5), until: s(8), durationSeconds: 3, reason: 'input_unreachable' }],
    });
  });

  it('reads events in time order, the database id breaking ties, whatever order they come in', () => {
    const up = ev(1, 'UP');
    const start = ev(0, 'START');
    const exit = { id: 100, at: new Date(at(10)), type: 'EXIT', reason: 'crashed' };
    const upAgain = { id: 101, at: new Date(at(10)), type: 'UP', reason: null };
    const { uptimes, downtimes } = deriveUptimes([upAgain, exit, up, start], at(20));
    expect(uptimes).toEqual([
      { from: s(1), until: s(10), durationSeconds: 9 },
      { from: s(10), durationSeconds: 10 },
    ]);
    expect(downtimes).toEqual([{ from: s(10), until: s(10), durationSeconds: 0, reason: 'crashed' }]);
  });

  it('takes the rows as they come from the database (bigint ids as strings, ISO times)', () => {
    const rows = [
      { id: '7', at: new Date(at(0)).toISOString(), type: 'START', reason: null },
      { id: '8', at: new Date(at(3)).toISOString(), type: 'UP', reason: null },
    ];
    expect(deriveUptimes(rows, new Date(at(13))).uptimes).toEqual([{ from: s(3), durationSeconds: 10 }]);
  });

  it('has nothing to show for a job without events', () => {
    expect(deriveUptimes([], at(0))).toEqual({ uptimes: [], downtimes: [] });
  });
});
