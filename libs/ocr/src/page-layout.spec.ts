import { describe, expect, it } from 'vitest';
import { layoutText, pageLayout, tableRows } from './page-layout';
import type { TesseractBlock, TesseractLine, TesseractWord } from './page-layout';

/** A word at `x` on the row whose top is `y`, 40 pixels tall, 22 pixels a letter. */
const word = (text: string, x: number, y: number): TesseractWord => ({
  text,
  bbox: { x0: x, y0: y, x1: x + text.length * 22, y1: y + 40 },
});

/** A line of words a space apart, with Tesseract's row height (x-height + 12 pixels of ascenders). */
function line(text: string, y: number, rowHeight = 46, x = 200): TesseractLine {
  const words: TesseractWord[] = [];
  for (const w of text.split(' ')) {
    const x0 = words.length ? words[words.length - 1].bbox.x1 + 12 : x;
    words.push(word(w, x0, y));
  }
  return {
    text: `${text}\n`,
    bbox: { x0: x, y0: y, x1: words[words.length - 1].bbox.x1, y1: y + 40 },
    words,
    rowAttributes: { rowHeight, ascenders: 12 },
  };
}

const block = (lines: TesseractLine[][], blocktype: number | string = 1): TesseractBlock => ({
  blocktype,
  bbox: { x0: 0, y0: 0, x1: 0, y1: 0 },
  paragraphs: lines.map((l) => ({ lines: l })),
});

const body = (y: number) => [
  line('The pump station stands at the edge of', y),
  line('the marsh, where the old road meets the', y + 55),
  line('river.', y + 110),
];

describe('pageLayout', () => {
  it('keeps Tesseract’s block order and makes short, larger paragraphs headings by their size', () => {
    const blocks = pageLayout([
      block([[line('Marsh Pump Station', 100, 73)]]),
      block([body(300), [line('Engines', 500, 53)], body(600)]),
      block([body(300).map((l) => ({ ...l, text: l.text.toUpperCase() }))]),
    ]);
    expect(blocks.map((b) => (b.kind === 'heading' ? [b.kind, b.level, b.text] : [b.kind]))).toEqual([
      ['heading', 1, 'Marsh Pump Station'],
      ['paragraph'],
      ['heading', 2, 'Engines'],
      ['paragraph'],
      ['paragraph'],
    ]);
    expect(blocks[1]).toMatchObject({
      text: 'The pump station stands at the edge of\nthe marsh, where the old road meets the\nriver.',
    });
  });

  it('does not take a short line of body size, or one ending a sentence, for a heading', () => {
    const blocks = pageLayout([
      block([body(100), [line('Visitors welcome', 300, 47)], [line('Opening hours vary.', 400, 60)]]),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph', 'paragraph']);
  });

  it('takes no heading for a short paragraph set as the text before it, on a page of smaller footnotes', () => {
    const footnotes = (y: number) =>
      [0, 1, 2, 3, 4].map((i) => line('1 Preliminary report, dated November 2018', y + i * 40, 36));
    const blocks = pageLayout([
      block([
        body(100),
        [line('These effects include stall warning', 300, 46), line('activation, and', 355, 46)],
      ]),
      block([footnotes(500), footnotes(800), footnotes(1100)]),
    ]);
    expect(blocks.map((b) => b.kind)).toEqual([
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
    ]);
  });

  it('lays out a block Tesseract marks as a table as a grid, and writes it row by row', () => {
    const rows = [line('Part', 100), line('Impeller', 160), line('Bearing', 220)];
    const codes = [line('Code', 100, 46, 900), line('IMP-204', 160, 46, 900), line('BRG-062', 220, 46, 900)];
    const table = block([[...rows, ...codes]], '6');
    const blocks = pageLayout([table]);
    expect(blocks).toMatchObject([
      {
        kind: 'table',
        rows: [
          ['Part', 'Code'],
          ['Impeller', 'IMP-204'],
          ['Bearing', 'BRG-062'],
        ],
      },
    ]);
    expect(layoutText(blocks)).toBe('Part\tCode\nImpeller\tIMP-204\nBearing\tBRG-062');
  });
});

describe('tableRows', () => {
  it('puts each cell in its column: rows by height, cells by the gaps between words', () => {
    const words = [
      // The header, and a row whose cells sit a little lower and higher than one another.
      word('Part', 100, 100),
      word('Code', 800, 100),
      word('Price', 1300, 100),
      word('Shaft', 100, 170),
      word('seal', 232, 170),
      word('SSL-118', 800, 180),
      word('45', 1300, 165),
      word('EUR', 1356, 165),
      // A row with an empty middle cell, and ruling lines read as glyphs.
      word('|', 700, 240),
      word('Gasket', 100, 240),
      word('|Stock|', 1300, 240),
    ];
    expect(tableRows(words)).toEqual([
      ['Part', 'Code', 'Price'],
      ['Shaft seal', 'SSL-118', '45 EUR'],
      ['Gasket', '', 'Stock'],
    ]);
  });

  it('keeps a single column as one cell a row', () => {
    expect(tableRows([word('One', 100, 100), word('Two', 100, 200)])).toEqual([['One'], ['Two']]);
  });
});
