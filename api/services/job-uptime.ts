/**
 * Uptimes and downtimes of a job, derived from its events (spec 03 §3 Statistics: "Uptimes and
 * downtimes: from, until (seconds; an open interval has no until)").
 *
 * A job is in one of four conditions, moved by its events (job_events rows, oldest first):
 *
 *   off       switched off: neither up nor down. An operator who stops a job takes it out of service;
 *             that is not an outage, and a VOD or batch that finished (STOP with reason finished)
 *             is done, not down.
 *   starting  switched on, the first process not delivering yet: neither up nor down. A start
 *             that goes wrong says so within the stale timeout with an EXIT or FAILURE.
 *   up        delivering media: from UP.
 *   down      it should run and does not: from an EXIT (crash, hang, input lost ...) or a FAILURE
 *             (restart attempts used up, a configuration it cannot run) until the next UP, or
 *             until it is switched off.
 *
 *   UP        → up (closes a downtime, opens an uptime; an UP while up continues the uptime)
 *   EXIT      → down, unless off (closes an uptime); a process that died while being stopped is no outage
 *   FAILURE   → down, unless off
 *   STOP      → off (closes either)
 *   START     → starting when off; while up (the node came back after the control plane died and
 *               replaced the old process) the uptime ends and a downtime runs until the next UP;
 *               while down it stays down
 *   RESTART   → no change: an ordered restart keeps the interval (if the new process does not
 *               come up, the EXIT or FAILURE that follows ends it); from off it is starting
 *   FAILOVER  → no change: the job goes on from the other input without a gap
 *
 * Events older than the job's statistics days are purged, so the first event kept may come in
 * the middle of a story: before it nothing is known, and an EXIT or FAILURE first still means the
 * job was on. A node that lost power records nothing until it is back: the uptime then runs until
 * the START of the recovery, which is the first moment anything is known.
 */

export type JobEventType = 'START' | 'STOP' | 'RESTART' | 'UP' | 'EXIT' | 'FAILOVER' | 'FAILURE';

export interface UptimeEvent {
  /** Database order, to break ties between events of the same instant. */
  id?: number | string | bigint;
  at: Date | number | string;
  type: JobEventType | string;
  reason?: string | null;
}

export interface UptimeInterval {
  /** Seconds since the epoch. */
  from: number;
  /** Seconds since the epoch; absent while the interval is still open. */
  until?: number;
  /** Length in seconds (up to `now` for an open interval). */
  durationSeconds: number;
}

export interface DowntimeInterval extends UptimeInterval {
  /** The reason of the event that took the job down (input_unreachable, hang, recovered ...). */
  reason: string | null;
}

export interface JobUptimes {
  uptimes: UptimeInterval[];
  downtimes: DowntimeInterval[];
}

/** `unknown`: before the first event kept; it behaves as off, except that an EXIT or FAILURE shows the job was on. */
type Condition = 'unknown' | 'off' | 'starting' | 'up' | 'down';

const toMs = (at: UptimeEvent['at']): number => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at));
const toSeconds = (ms: number): number => Math.floor(ms / 1000);
const idOrder = (id: UptimeEvent['id']): number => (id === undefined ? 0 : Number(id));

/** Uptimes and downtimes, oldest first; `now` (ms since the epoch) measures the open ones. */
export function deriveUptimes(events: readonly UptimeEvent[], now: number | Date = Date.now()): JobUptimes {
  const nowMs = toMs(now);
  const ordered = events
    .map((event, index) => ({ event, at: toMs(event.at), index }))
    .filter((e) => Number.isFinite(e.at))
    .sort((a, b) => a.at - b.at || idOrder(a.event.id) - idOrder(b.event.id) || a.index - b.index);

  const uptimes: UptimeInterval[] = [];
  const downtimes: DowntimeInterval[] = [];
  // Kept in an object: the helpers below change it, which the compiler's narrowing of a plain variable does not see.
  const job: { condition: Condition } = { condition: 'unknown' };
  let openUp: number | null = null;
  let openDown: { from: number; reason: string | null } | null = null;

  const closeUp = (at: number) => {
    if (openUp === null) return;
    uptimes.push({ from: toSeconds(openUp), until: toSeconds(at), durationSeconds: Math.round((at - openUp) / 1000) });
    openUp = null;
  };
  const closeDown = (at: number) => {
    if (openDown === null) return;
    downtimes.push({ from: toSeconds(openDown.from), until: toSeconds(at), durationSeconds: Math.round((at - openDown.from) / 1000), reason: openDown.reason });
    openDown = null;
  };
  const goUp = (at: number) => {
    closeDown(at);
    if (openUp === null) openUp = at;
    job.condition = 'up';
  };
  const goDown = (at: number, reason: string | null) => {
    closeUp(at);
    if (openDown === null) openDown = { from: at, reason };
    job.condition = 'down';
  };
  const goOff = (at: number) => {
    closeUp(at);
    closeDown(at);
    job.condition = 'off';
  };

  for (const { event, at } of ordered) {
    const reason = event.reason ?? null;
    switch (event.type) {
      case 'UP':
        goUp(at);
        break;
      case 'EXIT':
      case 'FAILURE':
        // After a STOP the job is off: a process that died while being stopped is no outage.
        if (job.condition !== 'off') goDown(at, reason);
        break;
      case 'STOP':
        goOff(at);
        break;
      case 'START':
        if (job.condition === 'up') goDown(at, reason ?? 'restarted');
        else if (job.condition === 'off' || job.condition === 'unknown') job.condition = 'starting';
        break;
      case 'RESTART':
        if (job.condition === 'off' || job.condition === 'unknown') job.condition = 'starting';
        break;
      case 'FAILOVER':
      default:
        break;
    }
  }

  if (openUp !== null) uptimes.push({ from: toSeconds(openUp), durationSeconds: Math.max(0, Math.round((nowMs - openUp) / 1000)) });
  const down = openDown as { from: number; reason: string | null } | null;
  if (down !== null) downtimes.push({ from: toSeconds(down.from), durationSeconds: Math.max(0, Math.round((nowMs - down.from) / 1000)), reason: down.reason });
  return { uptimes, downtimes };
}
