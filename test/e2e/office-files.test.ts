import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '@trove/domain';
import { blankPng, pngClaiming } from '../../libs/parsing/src/image/image-fixtures.testing';
import {
  odfPackage,
  pptxPackage,
  workbook,
  xlsxPackage,
} from '../../libs/parsing/src/office/office-fixtures.testing';
import { TroveStack } from '../support/stack';

/**
 * Office and data files through the API, with the real worker: a workbook, a CSV file, a
 * presentation and an OpenDocument text are uploaded, become READY, and a search naming a row's
 * label and a column's header finds the chunk holding that cell, cited at its sheet and rows (or
 * its slide). Hostile images and Office files (pixel bombs, a 400-page TIFF, a shared-string
 * bomb, XXE and billion laughs) each end READY or FAILED with a reason, and the worker goes on.
 */
/** Under the test stack's upload limit (256 KB), so the document limit is what refuses. */
const DOCUMENT_MAX_BYTES = 200_000;
const stack = new TroveStack({
  TROVE_PUBLIC_URL: 'http://trove.example:4000',
  TROVE_DOCUMENT_MAX_BYTES: String(DOCUMENT_MAX_BYTES),
});
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
    // Found among the deck's hits (which comes first is fusion's call on a two-slide deck: the
    // title slide can be nearer in meaning), and cited by its slide.
    const notes = (await search('office move', id)).find((hit) => hit.text.includes('office move'));
    expect(notes).toMatchObject({ page: 2 });
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

describe('hostile images and Office files', () => {
  const xxe = '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';
  const laughs = `<!DOCTYPE r [<!ENTITY l0 "lol">${Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
  ).join('')}]>`;
  const cell = (text: string) =>
    `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c></row></sheetData>`;
  /** Outcomes a hostile file may have: a reason a person can act on, never a crash or a retry loop. */
  const REASONS = new Set(['EMPTY_DOCUMENT', 'PARSE_LIMIT_EXCEEDED', 'UNSAFE_ARCHIVE', 'CORRUPT_DOCUMENT']);

  async function hostileFiles(): Promise<{ name: string; data: Buffer }[]> {
    const page = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    return [
      { name: 'claims-3.6-gigapixels.png', data: pngClaiming(60_000, 60_000) },
      { name: 'poster-99-megapixels.png', data: blankPng(9_950, 9_950) },
      { name: 'deep-61-megapixels-16-bit.png', data: blankPng(7_810, 7_810, 16) },
      {
        name: 'fax-400-pages.tiff',
        data: await sharp(
          Array.from({ length: 400 }, () => page),
          { join: { animated: true } },
        )
          .tiff({ compression: 'deflate' })
          .toBuffer(),
      },
      {
        name: 'shared-strings-bomb.xlsx',
        data: await xlsxPackage(cell('Ledger'), [
          {
            path: 'xl/sharedStrings.xml',
            data: `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${'<si><t>a</t></si>'.repeat(4_000_000)}</sst>`,
          },
        ]),
      },
      { name: 'xxe.xlsx', data: await xlsxPackage(cell('Quarry ledger &xxe; end'), [], xxe) },
      { name: 'laughs.xlsx', data: await xlsxPackage(cell('Quarry ledger &l9; end'), [], laughs) },
      {
        name: 'xxe.pptx',
        data: await pptxPackage([{ title: 'Quarry deck', body: ['Quarry body &xxe; end'] }], [], '', xxe),
      },
      {
        name: 'laughs.pptx',
        data: await pptxPackage([{ title: 'Quarry deck', body: ['Quarry body &l9; end'] }], [], '', laughs),
      },
      {
        name: 'xxe.odt',
        data: await odfPackage(MEDIA_TYPES.odt, '<text:p>Quarry notes &xxe; end</text:p>', { doctype: xxe }),
      },
      {
        name: 'laughs.odt',
        data: await odfPackage(MEDIA_TYPES.odt, '<text:p>Quarry notes &l9; end</text:p>', {
          doctype: laughs,
        }),
      },
    ];
  }

  it('each ends READY or FAILED with a clear reason, no entity is expanded, and the worker goes on', async () => {
    const uploaded: { name: string; id: string }[] = [];
    for (const { name, data } of await hostileFiles()) {
      const upload = await stack.upload(projectId, name, data);
      expect(upload.status, `${name}: ${JSON.stringify(upload.body)}`).toBe(202);
      uploaded.push({ name, id: String(upload.body.id) });
    }
    const outcomes = new Map<string, Awaited<ReturnType<typeof stack.settled>>>();
    for (const { name, id } of uploaded) outcomes.set(name, await stack.settled(id, 600_000));

    for (const [name, document] of outcomes) {
      if (document.status === 'FAILED') {
        expect(REASONS.has(document.error!.code), `${name}: ${JSON.stringify(document.error)}`).toBe(true);
        expect(document.error!.message, name).toContain(name);
      } else expect(document.status, name).toBe('READY');
    }
    // Refused from what the files declare, before any pixel or part is decoded in full.
    expect(outcomes.get('claims-3.6-gigapixels.png')!.error).toEqual({
      code: 'PARSE_LIMIT_EXCEEDED',
      message:
        'claims-3.6-gigapixels.png has 3,600,000,000 pixels, over the limit of 100,000,000 pixels per image (TROVE_DOCUMENT_MAX_PIXELS raises it)',
    });
    expect(outcomes.get('shared-strings-bomb.xlsx')!.error).toMatchObject({
      code: 'UNSAFE_ARCHIVE',
      message: expect.stringMatching(
        /the entry "xl\/sharedStrings\.xml" expands \d+ times .* \(a zip bomb\?\)$/,
      ),
    });
    // Entities stay as written: no file is read, no text multiplies.
    for (const name of ['xxe.xlsx', 'laughs.xlsx', 'xxe.pptx', 'laughs.pptx', 'xxe.odt', 'laughs.odt']) {
      const document = outcomes.get(name)!;
      expect(document.status, name).toBe('READY');
      const { chunks } = await stack.query<{ chunks: { text: string }[] }>(
        'query($d: ID!) { chunks(documentId: $d) { text } }',
        { d: document.id },
      );
      const text = chunks.map((c) => c.text).join('\n');
      expect(text, name).toMatch(/Quarry/);
      expect(text, name).not.toMatch(/root:/);
      expect(text.length, name).toBeLessThan(1_000);
    }

    // The worker is still up: a small upload after them becomes READY.
    const after = await stack.upload(projectId, 'after.md', '# After\n\nThe quarry reopens on Monday.\n');
    expect(await stack.settled(String(after.body.id), 120_000)).toMatchObject({ status: 'READY' });
    const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${stack.workerPid}/status`, 'utf8'))?.[1];
    console.info(
      `worker peak resident memory after the hostile files: ${Math.round(Number(peak) / 1024)} MB`,
    );
  }, 900_000);

  it('an upload over the document size limit (under the upload limit) is refused at once, naming the limit', async () => {
    const response = await stack.upload(projectId, 'ledger.csv', Buffer.alloc(DOCUMENT_MAX_BYTES + 1, 'a'));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: `ledger.csv has 200,001 bytes, over the limit of 200,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)`,
      },
    });
    const { documents } = await stack.query<{ documents: { nodes: { fileName: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 100) { nodes { fileName } } }',
      { p: projectId },
    );
    expect(documents.nodes.map((d) => d.fileName)).not.toContain('ledger.csv');
  });
});
