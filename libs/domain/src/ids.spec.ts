import { describe, expect, it } from 'vitest';
import { isAnswerId, isChunkId, isThreadId, isTroveId, newAnswerId, newThreadId } from './ids';

describe('id formats', () => {
  it('accepts UUIDs and 32-hex document ids, nothing else', () => {
    expect(isTroveId('0b4f3c4e-2a8f-4f0e-9d2a-6b1f0c9e7a11')).toBe(true);
    expect(isTroveId('3f2a9c0d8e7b6a5f4e3d2c1b0a998877')).toBe(true);
    for (const bad of [
      '',
      ' ',
      'x',
      '../_doc',
      'a'.repeat(600),
      '3f2a9c0d8e7b6a5f4e3d2c1b0a99887',
      null,
      42,
    ]) {
      expect(isTroveId(bad)).toBe(false);
    }
  });

  it('accepts chunk ids of either document id format', () => {
    expect(isChunkId('3f2a9c0d8e7b6a5f4e3d2c1b0a998877-12-0123456789ab')).toBe(true);
    expect(isChunkId('0b4f3c4e-2a8f-4f0e-9d2a-6b1f0c9e7a11-0-0123456789ab')).toBe(true);
    expect(isChunkId('3f2a9c0d8e7b6a5f4e3d2c1b0a998877')).toBe(false);
    expect(isChunkId('x-1-0123456789ab')).toBe(false);
    expect(isChunkId('')).toBe(false);
  });

  it('makes thread and answer ids of their own kind, which no other check accepts', () => {
    const thread = newThreadId();
    const answer = newAnswerId();
    expect(thread).toMatch(/^thr_[0-9a-f-]{36}$/);
    expect(answer).toMatch(/^ans_[0-9a-f-]{36}$/);
    expect(newThreadId()).not.toBe(thread);
    expect([isThreadId(thread), isAnswerId(thread), isTroveId(thread)]).toEqual([true, false, false]);
    expect([isAnswerId(answer), isThreadId(answer), isTroveId(answer)]).toEqual([true, false, false]);
    for (const bad of ['thr_', 'thr_x', `THR_${thread.slice(4)}`, `${thread} `, null]) {
      expect(isThreadId(bad)).toBe(false);
    }
  });
});
