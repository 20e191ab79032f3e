import { describe, expect, it } from 'vitest';
import { startingProject } from './last-project';

const empty = { id: 'a', stats: { documentCount: 0 } };
const demo = { id: 'b', stats: { documentCount: 7 } };
const other = { id: 'c', stats: { documentCount: 3 } };

describe('startingProject', () => {
  it('reopens the last project the caller still reaches', () => {
    expect(startingProject([empty, demo, other], 'c')).toBe(other);
  });

  it('falls back to the first project holding documents, then to the first project', () => {
    expect(startingProject([empty, demo, other], 'gone')).toBe(demo);
    expect(startingProject([empty, demo], null)).toBe(demo);
    expect(startingProject([empty], null)).toBe(empty);
    expect(startingProject([], 'a')).toBeUndefined();
  });
});
