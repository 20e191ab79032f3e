import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '@trove/domain';
import { odfPackage, pptxPackage, workbook } from '../../libs/parsing/src/office/office-fixtures.testing';
import { TroveStack } from '../support/stack';

/**
 * Office and data files through the API, with the real worker: a workbook, a CSV file, a
 * presentation and an OpenDocument text are uploaded, become READY, and a search naming a row's
 * label and a column's header finds the chunk holding that cell, cited at its sheet and rows (or
 * its slide).
 */
const stack = new TroveStack({ TROVE_PUBLIC_URL: 'http://trove.example:4000' });
let projectId: string;

interface Hit {
  documentId: string;
  text: string;
  headingPath: string[];
  page: number | null;
  citationUrl: string | null;
  citation: {
    sheet: string | null;
    rowStart: number | null;
    rowEnd: number | null;
    page: number | null;
  } | null;
}

async function search(query: string, documentId: string): Promise<Hit[]> {
  const { search } = await stack.query<{ search: { hits: Hit[] } }>(
    `query($input: SearchInput!) { search(input: $input) { hits {
      documentId text headingPath page citationUrl citation { sheet rowStart rowEnd page } } } }`,
    { input: { projectId, query, filters: { documentIds: [documentId] }, limit: 3 } },
  );
  return search.hits;
}

async function ready(fileName: string, data: Buffer): Promise<string> {
  const upload = await stack.upload(projectId, fileName, data);
  expect(upload.status, JSON.stringify(upload.body)).toBe(202);
  const document = await stack.settled(upload.body.id as string, 240_000);
  expect(document, JSON.stringify(document)).toMatchObject({ status: 'READY' });
  return document.id;
}

const PRODUCTS = ['Anvil', 'Bracket', 'Clamp', 'Dowel', 'Easel', 'Flange', 'Gasket', 'Hinge'];

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Office files');
});
afterAll(() => stack.stop());

describe('Office and data files', () => {
  it('an XLSX sheet is a table cut by row ranges: a row label and a column header find the cell, cited at sheet and rows', async () => {
    // 400 product lines: far more than one chunk, so the sheet is cut into row ranges with the header repeated.
    const rows: unknown[][] = [
      ['Forecast for 2025'],
      [],
      ['Product', 'Units', 'Revenue', 'Warehouse'],
      ...Array.from({ length: 400 }, (_, i) => [
        `${PRODUCTS[i % PRODUCTS.length]} model ${i}`,
        1000 + i,
        20_000 + i * 10,
        `Depot ${i % 7}`,
      ]),
    ];
    // Sheet row 304 (the 301st product line): its label and its warehouse cell, found by the warehouse column's name.
    rows[303] = ['Quartzite polisher', 4210, 88_400, 'Lisbon annex'];
    const id = await ready(
      'forecast.xlsx',
      workbook([
        { name: 'Summary', rows: [['Total units', 412_345]] },
        { name: 'Forecast', rows },
      ]),
    );
    const [hit] = await search('Quartzite polisher warehouse', id);
    expect(hit.text).toContain('| Quartzite polisher | 4210 | 88400 | Lisbon annex |');
    expect(
      hit.text.startsWith('| Product | Units | Revenue | Warehouse |\n| --- | --- | --- | --- |\n'),
    ).toBe(true);
    expect(hit.headingPath).toEqual(['Forecast']);
    const { sheet, rowStart, rowEnd } = hit.citation!;
    expect(sheet).toBe('Forecast');
    expect(rowStart).toBeGreaterThan(4);
    expect(rowStart).toBeLessThanOrEqual(304);
    expect(rowEnd).toBeGreaterThanOrEqual(304);
    expect(rowEnd).toBeLessThanOrEqual(403);
    expect(hit.citationUrl).toMatch(
      new RegExp(
        `^http://trove\\.example:4000/v1/documents/${id}/original\\?sig=[\\w-]+#sheet=Forecast&row=${rowStart}-${rowEnd}$`,
      ),
    );
  }, 300_000);

  it('a CSV file in windows-1251 with semicolons: the cell is found and cited by its records', async () => {
    const text = [
      'Город;Население;Регион',
      ...Array.from({ length: 40 }, (_, i) => `Посёлок ${i};${1000 + i};Область ${i % 5}`),
      'Калининград;489359;Калининградская область',
    ].join('\r\n');
    const decoder = new TextDecoder('windows-1251');
    const byChar = new Map<string, number>();
    for (let byte = 0; byte < 256; byte++) byChar.set(decoder.decode(Uint8Array.of(byte)), byte);
    const id = await ready('города.csv', Buffer.from([...text].map((char) => byChar.get(char)!)));
    const [hit] = await search('Калининград население', id);
    expect(hit.text).toContain('| Калининград | 489359 | Калининградская область |');
    expect(hit.text.startsWith('| Город | Население | Регион |')).toBe(true);
    expect(hit.citation).toMatchObject({ sheet: null, rowEnd: 42 });
    expect(hit.citationUrl).toMatch(new RegExp(`#row=${hit.citation!.rowStart}-42$`));
  }, 300_000);

  it('a PPTX deck: a table cell on a slide and the speaker notes are found, cited by slide number', async () => {
    const id = await ready(
      'review.pptx',
      await pptxPackage([
        { title: 'Quarterly review', body: ['Prepared by the finance team'] },
        {
          title: 'Regional results',
          table: [
            ['Region', 'Headcount', 'Attrition'],
            ['Nordics', '140', '4%'],
            ['Patagonia', '37', '11%'],
          ],
          notes: ['Explain why attrition in Patagonia doubled after the office move.'],
        },
      ]),
    );
    const [cell] = await search('Patagonia attrition', id);
    expect(cell.text).toContain('| Patagonia | 37 | 11% |');
    expect(cell).toMatchObject({
      page: 2,
      headingPath: ['Slide 2: Regional results'],
      citation: { page: 2 },
    });
    expect(cell.citationUrl).toMatch(/#page=2$/);
    const [notes] = await search('office move', id);
    expect(notes).toMatchObject({ page: 2 });
    expect(notes.text).toContain('office move');
  }, 300_000);

  it('an ODT document keeps its table cells and headings', async () => {
    const body = [
      '<text:h text:outline-level="1">Suppliers</text:h>',
      '<text:p>Contracts signed this year.</text:p>',
      '<table:table><table:table-row><table:table-cell><text:p>Supplier</text:p></table:table-cell><table:table-cell><text:p>Lead time</text:p></table:table-cell></table:table-row>',
      '<table:table-row><table:table-cell><text:p>Brightwater Mills</text:p></table:table-cell><table:table-cell><text:p>9 weeks</text:p></table:table-cell></table:table-row></table:table>',
    ].join('');
    const id = await ready(
      'suppliers.odt',
      await odfPackage(MEDIA_TYPES.odt, body, { title: 'Suppliers 2025' }),
    );
    const [hit] = await search('Brightwater Mills lead time', id);
    expect(hit.text).toContain('| Brightwater Mills | 9 weeks |');
    expect(hit.headingPath).toEqual(['Suppliers']);
  }, 300_000);

  it('fails an encrypted workbook with a readable reason', async () => {
    const locked = Buffer.concat([
      Buffer.from('d0cf11e0a1b11ae1', 'hex'),
      Buffer.alloc(1000),
      Buffer.from('EncryptedPackage', 'utf16le'),
    ]);
    const upload = await stack.upload(projectId, 'locked.xlsx', locked);
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string);
    expect(document).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'ENCRYPTED_DOCUMENT',
        message: 'locked.xlsx is password-protected; save it without a password and upload it again',
      },
    });
  }, 180_000);
});
