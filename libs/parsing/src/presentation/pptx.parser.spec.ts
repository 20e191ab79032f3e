import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { buildZip } from '../archive/zip-fixtures.testing';
import { pptxPackage } from '../office/office-fixtures.testing';
import { PptxParser } from './pptx.parser';

const parser = new PptxParser();
const parse = (data: Buffer, fileName = 'deck.pptx') =>
  parser.parse({ fileName, mediaType: MEDIA_TYPES.pptx, data });

describe('PptxParser', () => {
  it('makes each slide a section with its title, text, table cells and speaker notes, cited by slide number', async () => {
    const doc = await parse(
      await pptxPackage(
        [
          { title: 'Quarterly review', body: ['Presented by the finance team'] },
          {
            title: 'Revenue by region',
            body: ['Revenue grew in every region.'],
            table: [
              ['Region', 'Q1', 'Q2'],
              ['North', '120', '130'],
            ],
            notes: ['Mention the new North office.'],
          },
          { title: 'Draft', body: ['Not shown'], hidden: true },
          { body: ['A slide without a title'] },
        ],
        [],
        'Review 2024',
      ),
    );
    expect(doc).toMatchObject({ title: 'Review 2024', pageCount: 4 });
    expect(doc.blocks).toEqual([
      {
        kind: 'paragraph',
        text: 'Presented by the finance team',
        headingPath: ['Slide 1: Quarterly review'],
        page: 1,
      },
      {
        kind: 'paragraph',
        text: 'Revenue grew in every region.',
        headingPath: ['Slide 2: Revenue by region'],
        page: 2,
      },
      {
        kind: 'table',
        text: '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 120 | 130 |',
        headingPath: ['Slide 2: Revenue by region'],
        page: 2,
      },
      {
        kind: 'paragraph',
        text: 'Mention the new North office.',
        headingPath: ['Slide 2: Revenue by region', 'Notes'],
        page: 2,
      },
      { kind: 'paragraph', text: 'A slide without a title', headingPath: ['Slide 4'], page: 4 },
    ]);
    expect(doc.warnings).toEqual(['skipped the hidden slide 3']);
  });

  it('fails corrupt, legacy, encrypted, empty and non-presentation files permanently', async () => {
    const good = await pptxPackage([{ title: 'One', body: ['text'] }]);
    await expect(parse(good.subarray(0, good.length - 20))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
    await expect(parse(await buildZip([{ path: 'a.txt', data: 'x' }]))).rejects.toMatchObject({
      code: TroveErrorCode.ParseFailed,
      message: 'deck.pptx is not a PowerPoint presentation: it is a zip archive without ppt/presentation.xml',
    });
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]);
    await expect(parse(ole)).rejects.toMatchObject({
      code: TroveErrorCode.ParseFailed,
      message: expect.stringContaining('legacy PowerPoint 97–2003 (.ppt) file, not .pptx'),
    });
    const locked = Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le')]);
    await expect(parse(locked)).rejects.toMatchObject({ code: TroveErrorCode.EncryptedDocument });
    await expect(parse(await pptxPackage([{ title: '' }]))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
    });
  });

  it('refuses a decompression bomb before reading a slide', async () => {
    const bomb = await pptxPackage(
      [{ title: 'One', body: ['text'] }],
      [{ path: 'ppt/media/zeros.bin', data: Buffer.alloc(30 * 1024 * 1024) }],
    );
    await expect(parse(bomb, 'bomb.pptx')).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
  });
});
