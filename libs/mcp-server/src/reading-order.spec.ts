import { describe, expect, it } from 'vitest';
import { documentMarkdown, reconstructText } from './reading-order';
import { neighbours } from './tools/documents.tools';

describe('reconstructText', () => {
  it('puts chunks in position order and writes the overlap between neighbours once', () => {
    const chunks = [
      {
        position: 1,
        text: 'The pipeline runs the migrations first. Then it switches traffic to the new version.',
      },
      { position: 0, text: 'Releases go out every Tuesday. The pipeline runs the migrations first.' },
    ];
    expect(reconstructText(chunks)).toBe(
      'Releases go out every Tuesday. The pipeline runs the migrations first. Then it switches traffic to the new version.',
    );
  });

  it('separates chunks without overlap by a blank line, and marks a missing position', () => {
    const text = reconstructText([
      { position: 0, text: 'First part.' },
      { position: 1, text: 'Second part.' },
      { position: 3, text: 'Fourth part.' },
    ]);
    expect(text).toBe('First part.\n\nSecond part.\n\n[…]\n\nFourth part.');
  });

  it('writes a title line above the text', () => {
    expect(documentMarkdown('Runbook', [{ position: 0, text: 'Body.' }])).toBe('# Runbook\n\nBody.\n');
    expect(documentMarkdown('Empty', [])).toContain('(no indexed text)');
  });
});

describe('neighbours', () => {
  const chunks = [4, 0, 2, 1, 3].map((position) => ({ position }));

  it('returns up to `before` and `after` chunks around a position, in reading order', () => {
    expect(neighbours(chunks, 2, 1, 1)).toEqual({ before: [{ position: 1 }], after: [{ position: 3 }] });
    expect(neighbours(chunks, 0, 3, 2)).toEqual({ before: [], after: [{ position: 1 }, { position: 2 }] });
    expect(neighbours(chunks, 4, 2, 5)).toEqual({ before: [{ position: 2 }, { position: 3 }], after: [] });
  });

  it('returns nothing for a position the chunks do not have', () => {
    expect(neighbours(chunks, 9, 1, 1)).toEqual({ before: [], after: [] });
  });
});
