import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, exponentialBackoff } from '../../engine/supervisor/backoff.ts';

describe('restart backoff', () => {
  it('retries the first time within a second, then doubles up to 30 s', () => {
    const delays = Array.from({ length: 10 }, (_, i) => DEFAULT_BACKOFF(i + 1));
    expect(delays[0]).toBeLessThan(1000);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('takes its start, growth and cap from the options', () => {
    const backoff = exponentialBackoff({ initialMs: 100, factor: 3, maxMs: 1000 });
    expect([1, 2, 3, 4].map(backoff)).toEqual([100, 300, 900, 1000]);
  });
});
