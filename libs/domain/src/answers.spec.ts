import { describe, expect, it } from 'vitest';
import { THREAD_TITLE_MAX, threadTitle } from './answers';

describe('threadTitle', () => {
  it('keeps a short question on one line and shortens a long one at a word', () => {
    expect(threadTitle('  How do I\n deploy?  ')).toBe('How do I deploy?');
    const long = threadTitle(`${'word '.repeat(30)}end`);
    expect(long.length).toBeLessThanOrEqual(THREAD_TITLE_MAX);
    expect(long).toMatch(/word…$/);
    expect(threadTitle('如'.repeat(100))).toHaveLength(THREAD_TITLE_MAX);
  });
});
