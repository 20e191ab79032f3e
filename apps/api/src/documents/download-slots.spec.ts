import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { RateLimitedError } from '../access/rate-limit';
import { DownloadSlots, DownloadsBusyError } from './download-slots';

describe('DownloadSlots', () => {
  it('admits up to the limit per document, refuses the next with RATE_LIMITED, and admits again after a release', () => {
    const slots = new DownloadSlots({ perLink: 2, perAddress: 10 });
    const first = slots.acquire('doc-1', '10.0.0.1');
    slots.acquire('doc-1', '10.0.0.2');
    let refusal: unknown;
    try {
      slots.acquire('doc-1', '10.0.0.3');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DownloadsBusyError);
    // The exception filter sends RateLimitedError as 429 with Retry-After.
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ code: TroveErrorCode.RateLimited, retryAfterSeconds: 5 });
    expect((refusal as Error).message).toMatch(/too many downloads of this original at once \(at most 2\)/);
    // Another document is not affected.
    slots.acquire('doc-2', '10.0.0.3');
    first();
    slots.acquire('doc-1', '10.0.0.3');
    expect(slots.inUse('doc-1', '10.0.0.3')).toEqual({ document: 2, address: 2 });
  });

  it('admits up to the limit per address across documents, and a refusal takes no slot', () => {
    const slots = new DownloadSlots({ perLink: 10, perAddress: 2 });
    slots.acquire('doc-1', '10.0.0.1');
    slots.acquire('doc-2', '10.0.0.1');
    expect(() => slots.acquire('doc-3', '10.0.0.1')).toThrow(
      /too many downloads from this address at once \(at most 2\)/,
    );
    expect(slots.inUse('doc-3', '10.0.0.1')).toEqual({ document: 0, address: 2 });
    slots.acquire('doc-3', '10.0.0.2');
  });

  it('counts a release once, however often it is called', () => {
    const slots = new DownloadSlots({ perLink: 1, perAddress: 1 });
    const release = slots.acquire('doc-1', undefined);
    release();
    release();
    expect(slots.inUse('doc-1', undefined)).toEqual({ document: 0, address: 0 });
    slots.acquire('doc-1', undefined);
    expect(() => slots.acquire('doc-1', undefined)).toThrow(DownloadsBusyError);
  });
});
