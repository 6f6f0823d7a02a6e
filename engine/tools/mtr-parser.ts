/**
 * Builds mtr's hop table from its raw output (`mtr --raw`), which streams one record a line:
 *   x <hop> <seq>          a probe was sent
 *   h <hop> <address>      the hop's address
 *   d <hop> <name>         its DNS name
 *   p <hop> <usec> <seq>   a reply to probe <seq>, after <usec> microseconds
 * Hops are numbered from 0 in the raw output and from 1 in the table.
 */

export interface MtrHop {
  hop: number;
  host: string | null;
  address: string | null;
  lossPercent: number;
  sent: number;
  received: number;
  lastMs: number | null;
  avgMs: number | null;
  bestMs: number | null;
  worstMs: number | null;
  stdevMs: number | null;
}

interface HopState {
  address: string | null;
  name: string | null;
  sent: number;
  received: number;
  last: number | null;
  best: number | null;
  worst: number | null;
  sum: number;
  sumSquares: number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export class MtrTable {
  private readonly hops = new Map<number, HopState>();

  private hop(index: number): HopState {
    let state = this.hops.get(index);
    if (!state) {
      state = { address: null, name: null, sent: 0, received: 0, last: null, best: null, worst: null, sum: 0, sumSquares: 0 };
      this.hops.set(index, state);
    }
    return state;
  }

  /** Add one raw line; true when the table changed. */
  add(line: string): boolean {
    const parts = line.trim().split(/\s+/);
    const index = Number(parts[1]);
    if (parts.length < 3 || !Number.isInteger(index) || index < 0 || index > 255) return false;
    switch (parts[0]) {
      case 'x':
        this.hop(index).sent += 1;
        return true;
      case 'h': {
        const state = this.hop(index);
        if (state.address === null) state.address = parts[2];
        return true;
      }
      case 'd':
        this.hop(index).name = parts[2];
        return true;
      case 'p': {
        const usec = Number(parts[2]);
        if (!Number.isFinite(usec)) return false;
        const ms = usec / 1000;
        const state = this.hop(index);
        state.received += 1;
        state.last = ms;
        state.best = state.best === null ? ms : Math.min(state.best, ms);
        state.worst = state.worst === null ? ms : Math.max(state.worst, ms);
        state.sum += ms;
        state.sumSquares += ms * ms;
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * The route so far, in order. mtr probes past the destination until it knows where it is, and
   * the destination answers every probe that reaches it: the route ends at the first hop with the
   * address of the farthest answer. Before any answer, the hops probed so far.
   */
  rows(): MtrHop[] {
    const indexes = [...this.hops.keys()].sort((a, b) => a - b);
    const answered = indexes.filter((i) => this.hops.get(i)?.address);
    const farthest = answered.length ? this.hops.get(answered[answered.length - 1])?.address : undefined;
    const last = farthest ? (answered.find((i) => this.hops.get(i)?.address === farthest) as number) : (indexes.at(-1) ?? -1);
    return indexes
      .filter((i) => i <= last)
      .map((i) => {
        const s = this.hops.get(i) as HopState;
        const avg = s.received ? s.sum / s.received : null;
        const variance = s.received && avg !== null ? Math.max(0, s.sumSquares / s.received - avg * avg) : null;
        const sent = Math.max(s.sent, s.received);
        return {
          hop: i + 1,
          host: s.name ?? s.address,
          address: s.address,
          lossPercent: sent ? round(((sent - s.received) / sent) * 100) : 0,
          sent,
          received: s.received,
          lastMs: s.last === null ? null : round(s.last),
          avgMs: avg === null ? null : round(avg),
          bestMs: s.best === null ? null : round(s.best),
          worstMs: s.worst === null ? null : round(s.worst),
          stdevMs: variance === null ? null : round(Math.sqrt(variance)),
        };
      });
  }
}

/** mtr's own error (it exits 0 after "mtr: Failed to resolve host: ..."), without the program name. */
export function mtrErrorText(line: string): string {
  return line.replace(/^mtr: /, '').trim();
}
