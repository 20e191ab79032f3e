import { describe, expect, it } from 'vitest';
import type { OcrBlock, OcrPageResult } from '@trove/ocr';
import { ScanSections } from './ocr-pages';

const box = { x0: 0, y0: 0, x1: 0, y1: 0 };
const heading = (level: 1 | 2, text: string): OcrBlock => ({ kind: 'heading', level, text, box });
const paragraph = (text: string): OcrBlock => ({ kind: 'paragraph', text, box });
const page = (...blocks: OcrBlock[]): OcrPageResult => ({
  text: '',
  blocks,
  confidence: 88,
  languages: ['eng'],
});

describe('ScanSections', () => {
  it('puts the blocks under the headings recognised above them, across pages, under the path the scan started in', () => {
    const sections = new ScanSections(['Appendix']);
    const first = sections.blocks(
      3,
      page(
        heading(1, 'Marsh Pump Station'),
        paragraph('The station stands\nat the marsh-\nes’ edge.'),
        heading(2, 'Engines'),
      ),
    );
    const second = sections.blocks(
      4,
      page(paragraph('Three engines.'), heading(2, 'Warranty'), paragraph('Two years.')),
    );
    expect([...first, ...second].map((b) => [b.page, b.text, b.headingPath])).toEqual([
      [3, 'The station stands at the marshes’ edge.', ['Appendix', 'Marsh Pump Station']],
      // A heading ending the page is kept as text too: it may have nothing under it.
      [3, 'Engines', ['Appendix', 'Marsh Pump Station']],
      [4, 'Three engines.', ['Appendix', 'Marsh Pump Station', 'Engines']],
      [4, 'Two years.', ['Appendix', 'Marsh Pump Station', 'Warranty']],
    ]);
    expect(second.every((b) => b.ocr && b.ocrConfidence === 88)).toBe(true);
  });

  it('keeps a heading with nothing under it as text, and starts again under the text layer’s path', () => {
    const sections = new ScanSections();
    const cover = sections.blocks(
      1,
      page(heading(1, 'Annual Report'), heading(1, 'Contents'), paragraph('Pumps')),
    );
    expect(cover.map((b) => [b.text, b.headingPath])).toEqual([
      ['Annual Report', []],
      ['Pumps', ['Contents']],
    ]);
    sections.rebase(['Budget']);
    expect(sections.blocks(5, page(paragraph('Costs'))).map((b) => b.headingPath)).toEqual([['Budget']]);
  });

  it('drops a page number standing alone near either end of the page, and keeps a number in the body', () => {
    const blocks = new ScanSections().blocks(
      8,
      page(
        paragraph('Federal Register / Vol. 85'),
        paragraph('47705'),
        paragraph('Pumps in service:'),
        paragraph('12'),
        paragraph('All were inspected.'),
        paragraph('- 8 -'),
      ),
    );
    expect(blocks.map((b) => b.text)).toEqual([
      'Federal Register / Vol. 85',
      'Pumps in service:',
      '12',
      'All were inspected.',
    ]);
  });

  it('writes a table as a Markdown pipe table headed by its first row', () => {
    const table: OcrBlock = {
      kind: 'table',
      rows: [
        ['Part', 'Price'],
        ['Seal | gasket', ''],
      ],
      box,
    };
    expect(new ScanSections().blocks(1, page(table))).toMatchObject([
      { kind: 'table', text: '| Part | Price |\n| --- | --- |\n| Seal \\| gasket |  |', ocr: true },
    ]);
  });
});
