import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageSize, toPage } from './cursor';

describe('cursors', () => {
  it('round-trip a row position and refuse anything else', () => {
    const at = new Date('2026-11-23T10:00:00.123Z');
    expect(decodeCursor(encodeCursor(at, 'abc'))).toEqual({ at: at.toISOString(), id: 'abc' });
    for (const forged of [
      '',
      'x',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('["soon","a"]').toString('base64url'),
    ]) {
      expect(() => decodeCursor(forged)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });

  it('page sizes are 1–500, 50 by default', () => {
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize(500)).toBe(500);
    for (const bad of [0, -1, 501, 2.5]) expect(() => pageSize(bad)).toThrow(/between 1 and 500/);
  });

  it('a page uses the extra row only to say there is more', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, at: new Date(n * 1000) }));
    const full = toPage(
      rows,
      { count: '7' },
      2,
      (r) => r.at,
      (r) => r.id,
    );
    expect(full).toMatchObject({ items: ['r1', 'r2'], totalCount: 7, hasNextPage: true });
    expect(decodeCursor(full.endCursor!)).toEqual({ at: new Date(2000).toISOString(), id: 'r2' });
    const last = toPage(
      rows.slice(0, 2),
      { count: 2 },
      2,
      (r) => r.at,
      (r) => r.id,
    );
    expect(last.hasNextPage).toBe(false);
    expect(
      toPage(
        [],
        { count: 0 },
        2,
        (r: { id: string; at: Date }) => r.at,
        (r) => r.id,
      ),
    ).toEqual({
      items: [],
      totalCount: 0,
      endCursor: undefined,
      hasNextPage: false,
    });
  });
});
