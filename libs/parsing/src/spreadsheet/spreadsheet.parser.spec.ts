import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS, MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { buildZip, patchEntry } from '../archive/zip-fixtures.testing';
import { odfPackage, workbook, xlsxPackage } from '../office/office-fixtures.testing';
import { SpreadsheetParser } from './spreadsheet.parser';

const parser = new SpreadsheetParser();
const parse = (data: Buffer, fileName = 'report.xlsx', mediaType: string = MEDIA_TYPES.xlsx) =>
  parser.parse({ fileName, mediaType, data });

const SALES = [
  ['Quarterly sales 2024'],
  [],
  ['Region', 'Q1', 'Q2', 'Signed'],
  ['North', 120, 130.5, new Date(Date.UTC(2024, 0, 5))],
  [],
  ['South', 90, 95, null],
];

describe('SpreadsheetParser', () => {
  it('makes each sheet a section holding one table under its detected header row, rows numbered as in the sheet', async () => {
    const doc = await parse(
      workbook([
        { name: 'Sales', rows: SALES },
        {
          name: 'Costs',
          rows: [
            ['Item', 'Cost'],
            ['Rent', 1000],
          ],
        },
      ]),
    );
    expect(doc.title).toBe('report');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Quarterly sales 2024', headingPath: ['Sales'], sheet: 'Sales' },
      {
        kind: 'table',
        text: [
          '| Region | Q1 | Q2 | Signed |',
          '| --- | --- | --- | --- |',
          '| North | 120 | 130.5 | 2024-01-05 |',
          '| South | 90 | 95 |  |',
        ].join('\n'),
        headingPath: ['Sales'],
        sheet: 'Sales',
        rowNumbers: [4, 6],
      },
      {
        kind: 'table',
        text: '| Item | Cost |\n| --- | --- |\n| Rent | 1000 |',
        headingPath: ['Costs'],
        sheet: 'Costs',
        rowNumbers: [2],
      },
    ]);
  });

  it('reads legacy XLS (BIFF8) and OpenDocument ODS the same way', async () => {
    const sheets = [{ name: 'Sales', rows: SALES }];
    const xlsx = await parse(workbook(sheets));
    for (const [bookType, mediaType] of [
      ['xls', MEDIA_TYPES.xls],
      ['ods', MEDIA_TYPES.ods],
    ] as const) {
      const doc = await parse(workbook(sheets, bookType), `report.${bookType}`, mediaType);
      expect(doc.blocks, bookType).toEqual(xlsx.blocks);
    }
  });

  it('names the columns by letter when no row looks like a header, and skips hidden sheets', async () => {
    const doc = await parse(
      workbook([
        {
          name: 'Numbers',
          rows: [
            [null, 1, 2],
            [null, 3, 4],
          ],
        },
        {
          name: 'Lookup',
          rows: [
            ['key', 'value'],
            ['a', 'b'],
          ],
          hidden: true,
        },
      ]),
    );
    expect(doc.blocks).toEqual([
      expect.objectContaining({ text: '| B | C |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |', rowNumbers: [1, 2] }),
    ]);
    expect(doc.warnings).toEqual(['skipped the hidden sheet "Lookup"']);
  });

  it('fails a workbook of more rows than the row limit (all sheets together), naming the limit', async () => {
    const rows = (n: number) => [
      ['Id', 'Name'],
      ...Array.from({ length: n - 1 }, (_, i) => [i, `name ${i}`]),
    ];
    const small = new SpreadsheetParser({ ...DEFAULT_DOCUMENT_LIMITS, maxRows: 50 });
    const within = await small.parse({
      fileName: 'fits.xlsx',
      mediaType: MEDIA_TYPES.xlsx,
      data: workbook([
        { name: 'A', rows: rows(25) },
        { name: 'B', rows: rows(25) },
      ]),
    });
    expect(within.blocks).toHaveLength(2);
    await expect(
      small.parse({
        fileName: 'big.xlsx',
        mediaType: MEDIA_TYPES.xlsx,
        data: workbook([
          { name: 'A', rows: rows(25) },
          { name: 'B', rows: rows(26) },
        ]),
      }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      permanent: true,
      message:
        'big.xlsx has 51 rows, over the limit of 50 rows per document (TROVE_DOCUMENT_MAX_ROWS raises it)',
    });
  });

  it('refuses an XLSX file from what its parts declare (rows, shared strings), before SheetJS reads it', async () => {
    const grid = await xlsxPackage(
      '<dimension ref="A1:XFD2000000"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>near</t></is></c></row></sheetData>',
    );
    await expect(parse(grid, 'grid.xlsx')).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      message:
        'grid.xlsx has 2,000,000 rows, over the limit of 1,000,000 rows per document (TROVE_DOCUMENT_MAX_ROWS raises it)',
    });
    const strings = await xlsxPackage('<sheetData/>', [
      {
        path: 'xl/sharedStrings.xml',
        data: '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4000000000" uniqueCount="4000000000"><si><t>a</t></si></sst>',
      },
    ]);
    await expect(parse(strings, 'strings.xlsx')).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      message:
        'strings.xlsx (its shared strings table) has more than 4,000,000,000 characters of text, over the limit of 20,000,000 characters of text per document (TROVE_DOCUMENT_MAX_TEXT_CHARS raises it)',
    });
  });

  it('fails a corrupt, encrypted, empty or non-workbook file permanently with a readable reason', async () => {
    const good = workbook([{ name: 'Sales', rows: SALES }]);
    await expect(parse(good.subarray(0, good.length - 30))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
    await expect(parse(await buildZip([{ path: 'notes.txt', data: 'hi' }]))).rejects.toMatchObject({
      code: TroveErrorCode.ParseFailed,
      message: 'report.xlsx is not a workbook: it is a zip archive without xl/workbook.xml or content.xml',
    });
    const locked = Buffer.concat([
      Buffer.from('d0cf11e0a1b11ae1', 'hex'),
      Buffer.alloc(600),
      Buffer.from('EncryptedPackage\u0000', 'utf16le'),
    ]);
    await expect(parse(locked)).rejects.toMatchObject({
      code: TroveErrorCode.EncryptedDocument,
      message: 'report.xlsx is password-protected; save it without a password and upload it again',
    });
    const lockedOds = await odfPackage(MEDIA_TYPES.ods, '', { encrypted: true });
    await expect(parse(lockedOds, 'budget.ods', MEDIA_TYPES.ods)).rejects.toMatchObject({
      code: TroveErrorCode.EncryptedDocument,
    });
    await expect(
      parse(Buffer.from('plain words, not a workbook'), 'fake.xls', MEDIA_TYPES.xls),
    ).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
      message: expect.stringContaining('fake.xls is not an Excel or OpenDocument workbook'),
    });
    await expect(parse(Buffer.alloc(0))).rejects.toMatchObject({ code: TroveErrorCode.EmptyDocument });
    await expect(parse(workbook([{ name: 'Empty', rows: [[]] }]))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
      message: 'report.xlsx has no cells with content',
    });
  });

  it('checks the archive with safe-zip limits before SheetJS inflates it, headers that lie included', async () => {
    const bomb = await buildZip([
      { path: '[Content_Types].xml', data: '<Types/>' },
      { path: 'xl/workbook.xml', data: '<workbook/>' },
      { path: 'xl/media/zeros.bin', data: Buffer.alloc(30 * 1024 * 1024) },
    ]);
    await expect(parse(bomb, 'bomb.xlsx')).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: expect.stringMatching(/^bomb\.xlsx was refused: the entry "xl\/media\/zeros\.bin"/),
    });
    // Declared as 1,000 bytes: only inflating it (counted) finds the 30 MiB.
    const liar = patchEntry(bomb, 'xl/media/zeros.bin', { uncompressedSize: 1000 });
    await expect(parse(liar, 'liar.xlsx')).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
  });
});
