import { describe, expect, it } from 'vitest';
import { sentencesOf, textWindows } from './text-windows';
import { SegmenterTokenCounter } from './token-counter';

const words = new Intl.Segmenter('und', { granularity: 'word' });
const sentences = new Intl.Segmenter('und', { granularity: 'sentence' });

/** Text whose sentence boundaries depend on what follows a period (abbreviations, numbers, quotes). */
const TRICKY = [
  'Dr. Smith met Mr. Jones at 5 p.m. on Jan. 3, 2024. They talked etc. 5 lowercase words follow here.',
  'He said "Stop." Then he left! Did she? No... she stayed (mostly). Biol. 147, 195-197] and more text.',
  'Versions 1.2.3 and 4.5 shipped; see e.g. the notes. U.S.A. is long. Next sentence starts here.',
  'Это предложение. А это второе — с тире, и т. д. и т. п. Последнее предложение здесь.',
  'Ceci est une phrase. « Citation. » Encore une autre phrase ici, avec des mots.',
  '日本語の文です。二つ目の文です。English after CJK. And one more.',
];

function paragraph(repeat: number): string {
  return Array.from({ length: repeat }, (_, i) => TRICKY[i % TRICKY.length]).join(' ');
}

/** The token count of one pass over the whole text (what the counter computed before windows). */
function wholeCount(text: string): number {
  let tokens = 0;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
  for (const { segment, isWordLike } of words.segment(text)) {
    if (isWordLike) {
      const c = segment.match(cjk)?.length ?? 0;
      tokens += c + (segment.length > c ? Math.ceil((segment.length - c) / 4) : 0);
    } else if (segment.trim()) tokens += segment.trim().length;
  }
  return tokens;
}

describe('textWindows', () => {
  it('covers the text in order with windows no longer than the size, cut after a word where there is one', () => {
    const text = paragraph(40);
    const windows = [...textWindows(text, 100)];
    expect(windows[0][0]).toBe(0);
    expect(windows.at(-1)![1]).toBe(text.length);
    for (let i = 0; i < windows.length; i++) {
      const [start, end] = windows[i];
      expect(end - start).toBeLessThanOrEqual(100);
      if (i > 0) expect(start).toBe(windows[i - 1][1]);
      if (end < text.length) expect(text.slice(end - 1, end + 1)).toMatch(/^\p{L}\s$/u);
    }
  });

  it('cuts text without spaces too, never inside a surrogate pair or before a combining mark', () => {
    const samples = [
      'x'.repeat(10_000),
      '漢字'.repeat(3_000),
      '😀'.repeat(3_000),
      'e\u0301'.repeat(3_000),
      'QUJD+ZGVm/'.repeat(1_000),
    ];
    for (const text of samples) {
      const windows = [...textWindows(text, 64)];
      expect(windows.map(([s, e]) => text.slice(s, e)).join('')).toBe(text);
      for (const [start, end] of windows) {
        expect(end - start).toBeGreaterThan(0);
        expect(end - start).toBeLessThanOrEqual(65);
        if (end < text.length) {
          expect(text.charCodeAt(end) >= 0xdc00 && text.charCodeAt(end) <= 0xdfff).toBe(false);
          expect(text[end]).not.toMatch(/\p{M}/u);
        }
      }
    }
  });
});

describe('segmenting in windows', () => {
  it('finds the sentences one pass over the whole text finds', () => {
    for (const size of [48, 200, 2048]) {
      const text = paragraph(60);
      expect([...sentencesOf(sentences, text, size)]).toEqual(
        [...sentences.segment(text)].map((s) => s.segment),
      );
    }
  });

  it('counts the tokens one pass over the whole text counts', () => {
    const counter = new SegmenterTokenCounter();
    for (const text of [
      paragraph(200),
      paragraph(200).replace(/ /g, '\n'),
      `${paragraph(50)}\n\n${'word '.repeat(3000)}`,
    ]) {
      expect(text.length).toBeGreaterThan(4 * 2048);
      expect(counter.count(text)).toBe(wholeCount(text));
    }
  });
});
