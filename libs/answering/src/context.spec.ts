import { describe, expect, it } from 'vitest';
import { SegmenterTokenCounter } from '@trove/chunking';
import { budgetContext } from './context';
import { passageBlock } from './prompt-template';

const counter = new SegmenterTokenCounter();
const passage = (title: string, words: number) => ({
  title,
  headingPath: ['Guide', 'Part'],
  text: Array.from({ length: words }, (_, i) => `word${i}`).join(' '),
});

describe('budgetContext', () => {
  it('numbers passages in rank order while their blocks fit, skipping one that does not', () => {
    const candidates = [passage('a', 40), passage('b', 200), passage('c', 40)];
    const { passages, tokens } = budgetContext(candidates, 250, counter);
    expect(passages.map((p) => [p.marker, p.candidate.title, p.truncated])).toEqual([
      [1, 'a', false],
      [2, 'c', false],
    ]);
    expect(tokens).toBeLessThanOrEqual(250);
    const blocks = passages.map((p) => counter.count(passageBlock({ ...p.candidate, marker: p.marker })) + 2);
    expect(tokens).toBe(blocks[0] + blocks[1]);
  });

  it('cuts the first passage to the budget when it alone is too long, never exceeding it', () => {
    const { passages, tokens } = budgetContext([passage('long', 2000)], 300, counter);
    expect(passages).toHaveLength(1);
    expect(passages[0].truncated).toBe(true);
    expect(passages[0].text.endsWith(' …')).toBe(true);
    expect(tokens).toBeLessThanOrEqual(300);
    expect(tokens).toBeGreaterThan(250);
  });

  it('counts the title and heading path as part of the budget', () => {
    const long = {
      ...passage('t', 30),
      headingPath: Array.from({ length: 40 }, (_, i) => `Heading number ${i}`),
    };
    const { passages } = budgetContext([passage('x', 30), long], 120, counter);
    expect(passages.map((p) => p.candidate.title)).toEqual(['x']);
  });
});
