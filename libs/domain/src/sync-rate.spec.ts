import { describe, expect, it } from 'vitest';
import { appendProgressSample, RATE_WINDOW_MS, syncRate } from './sync-rate';

const s = (seconds: number, pages: number) => ({ at: seconds * 1000, pages });

describe('syncRate', () => {
  it('measures the recent window, not the average since the start', () => {
    // 10 pages in the first 100 s, then 120 pages in the last 60 s.
    const samples = [s(0, 0), s(100, 10), s(130, 70), s(160, 130)];
    const rate = syncRate(samples, 160_000, 330);
    expect(rate?.pagesPerSecond).toBe(2);
    expect(rate?.etaSeconds).toBe(100);
  });

  it('falls while nothing moves, and has no ETA at zero', () => {
    const samples = [s(0, 0), s(30, 60), s(60, 120)];
    expect(syncRate(samples, 60_000, 200)?.pagesPerSecond).toBe(2);
    expect(syncRate(samples, 90_000, 200)?.pagesPerSecond).toBe(1);
    const stopped = syncRate(samples, 60_000 + 3 * RATE_WINDOW_MS, 200);
    expect(stopped).toEqual({ pagesPerSecond: 0 });
  });

  it('is unknown without samples or within the first second, and has no ETA without a plan', () => {
    expect(syncRate(undefined, 1000)).toBeUndefined();
    expect(syncRate([s(10, 0)], 10_500)).toBeUndefined();
    expect(syncRate([s(10, 0), s(20, 50)], 20_000)).toEqual({ pagesPerSecond: 5 });
  });

  it('says 0 seconds left once the planned pages are done', () => {
    expect(syncRate([s(0, 0), s(10, 40)], 10_000, 40)).toEqual({ pagesPerSecond: 4, etaSeconds: 0 });
  });
});

describe('appendProgressSample', () => {
  it("keeps the window's samples and the one just before it", () => {
    let samples = appendProgressSample(undefined, s(0, 0));
    for (let t = 10; t <= 200; t += 10) samples = appendProgressSample(samples, s(t, t));
    expect(samples[0]).toEqual(s(130, 130));
    expect(samples.at(-1)).toEqual(s(200, 200));
    expect(samples.every((x, i) => i === 0 || x.at > samples[i - 1].at)).toBe(true);
  });

  it('drops samples from the future (a replayed write) and caps the count', () => {
    expect(appendProgressSample([s(50, 5)], s(40, 4))).toEqual([s(40, 4)]);
    let samples = appendProgressSample(undefined, s(0, 0));
    for (let ms = 100; ms <= 30_000; ms += 100)
      samples = appendProgressSample(samples, { at: ms, pages: ms });
    expect(samples).toHaveLength(40);
  });
});
