import { describe, expect, it } from 'vitest';
import type { TextRun } from './layout';
import { itemsToRuns, readingOrder } from './layout';

let order = 0;
/** A run of 10-pt text; `y` is the baseline from the top of the page. */
const run = (text: string, x0: number, y: number, width = text.length * 5, size = 10): TextRun => ({
  text,
  x0,
  x1: x0 + width,
  y,
  size,
  font: 'f1',
  mono: false,
  order: order++,
});

/** Two columns of `rows` lines each, 12 pt apart, starting at `top`. */
function columns(top: number, rows: number): TextRun[] {
  const runs: TextRun[] = [];
  for (let i = 0; i < rows; i++) {
    runs.push(run(`left line ${i} of the first column text`, 50, top + i * 12, 200));
    runs.push(run(`right line ${i} of the second column text`, 270, top + i * 12, 200));
  }
  return runs;
}

describe('readingOrder', () => {
  it('reads two columns one after the other, below a title spanning both', () => {
    const lines = readingOrder([
      run('A title that spans the whole page width', 50, 60, 420),
      ...columns(90, 6),
    ]);
    expect(lines.map((l) => l.text)).toEqual([
      'A title that spans the whole page width',
      ...Array.from({ length: 6 }, (_, i) => `left line ${i} of the first column text`),
      ...Array.from({ length: 6 }, (_, i) => `right line ${i} of the second column text`),
    ]);
    expect(new Set(lines.slice(1, 7).map((l) => l.flow)).size).toBe(1);
    expect(lines[1].flow).not.toBe(lines[7].flow);
  });

  it('keeps rows of short cells on one baseline together as table rows', () => {
    const rows = ['Name', 'Jakarta', 'Berlin', 'Paris'].map((label, i) => [
      run(label, 50, 100 + i * 20, 40),
      run(`${i}1`, 200, 100 + i * 20, 15),
      run(`${i}2`, 300, 100 + i * 20, 15),
    ]);
    const lines = readingOrder(rows.flat());
    expect(lines.map((l) => l.cells.map((c) => c.text))).toEqual([
      ['Name', '01', '02'],
      ['Jakarta', '11', '12'],
      ['Berlin', '21', '22'],
      ['Paris', '31', '32'],
    ]);
  });

  it('puts spaces between words by their gaps, none inside words, and joins superscripts', () => {
    const lines = readingOrder([
      run('Hel', 50, 100, 15),
      run('lo', 65.2, 100, 10),
      run('world', 78, 100, 25),
      run('2', 103.5, 96, 3, 6),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world2']);
  });
});

describe('itemsToRuns', () => {
  it('puts the origin at the top left and drops text turned against the page', () => {
    const viewport = [1, 0, 0, -1, 0, 800];
    const { runs } = itemsToRuns(
      [
        {
          str: 'most of the text is upright',
          transform: [10, 0, 0, 10, 72, 700],
          width: 135,
          fontName: 'f1',
        },
        { str: 'margin stamp', transform: [0, 10, -10, 0, 20, 400], width: 60, fontName: 'f1' },
        { str: '   ', transform: [10, 0, 0, 10, 72, 680], width: 10, fontName: 'f1' },
      ],
      viewport,
    );
    expect(runs).toEqual([
      expect.objectContaining({ text: 'most of the text is upright', x0: 72, x1: 207, y: 100, size: 10 }),
    ]);
  });
});
