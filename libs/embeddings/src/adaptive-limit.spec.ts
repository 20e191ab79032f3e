import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from './adaptive-limit';

/**
 * A server that embeds up to `capacity` requests at once, each taking `serviceMs`: with `n`
 * requests kept there, one comes back every serviceMs / min(n, capacity) ms. Replays `count`
 * completions against the limit, always with more waiting (saturated), and returns the limit
 * after each one.
 */
function drive(
  limit: AdaptiveLimit,
  server: { capacity: number; serviceMs: number; jitter?: number },
  count: number,
): number[] {
  let at = 0;
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const jitter = 1 + (server.jitter ?? 0) * (2 * random() - 1);
    at += (server.serviceMs / Math.min(limit.limit, server.capacity)) * jitter;
    limit.record({ at, size: 1_000, overloaded: false, saturated: true });
    seen.push(limit.limit);
  }
  return seen;
}

function share(values: number[], test: (value: number) => boolean): number {
  return values.filter(test).length / values.length;
}

describe('AdaptiveLimit', () => {
  it('stays at its floor in front of a server that embeds one request at a time', () => {
    const limit = new AdaptiveLimit({ initial: 2, min: 2, max: 16 });
    const seen = drive(limit, { capacity: 1, serviceMs: 1_000, jitter: 0.1 }, 5_000);
    expect(Math.max(...seen)).toBeLessThanOrEqual(3);
    // A raise is tried now and then (one window in ten) and taken back.
    expect(share(seen, (n) => n === 2)).toBeGreaterThan(0.75);
  });

  it('climbs to what a server embedding requests in parallel can take, and no further', () => {
    const limit = new AdaptiveLimit({ initial: 2, min: 2, max: 16 });
    const seen = drive(limit, { capacity: 6, serviceMs: 1_000, jitter: 0.1 }, 5_000);
    const settled = seen.slice(2_500);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...settled)).toBeLessThanOrEqual(7);
    expect(share(settled, (n) => n === 6)).toBeGreaterThan(0.6);
  });

  it('never goes above its ceiling', () => {
    const limit = new AdaptiveLimit({ initial: 2, min: 2, max: 4 });
    const seen = drive(limit, { capacity: 100, serviceMs: 100 }, 2_000);
    expect(Math.max(...seen)).toBe(4);
    expect(seen.at(-1)).toBe(4);
  });

  it('halves on an overload answer, not below its floor', () => {
    const moves: number[] = [];
    const limit = new AdaptiveLimit({ initial: 8, min: 3, max: 16 }, (n) => moves.push(n));
    limit.record({ at: 1, size: 10, overloaded: true, saturated: true });
    expect(limit.limit).toBe(4);
    limit.record({ at: 2, size: 10, overloaded: true, saturated: true });
    expect(limit.limit).toBe(3);
    expect(moves).toEqual([4, 3]);
  });

  it('learns nothing while demand, not the limit, sets the pace', () => {
    const limit = new AdaptiveLimit({ initial: 2, min: 1, max: 16 });
    // Requests come back faster and faster because more arrive, not because more were sent.
    let at = 0;
    for (let i = 1; i <= 1_000; i++) {
      at += 1_000 / i;
      limit.record({ at, size: 100, overloaded: false, saturated: false });
    }
    expect(limit.limit).toBe(2);
  });

  it('refuses bounds that cannot hold', () => {
    expect(() => new AdaptiveLimit({ initial: 2, min: 4, max: 3 })).toThrow(/min <= max/);
  });
});
