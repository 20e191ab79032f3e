import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTroveError, TroveErrorCode } from '@trove/domain';
import { buildZip, patchEntry } from './archive/zip-fixtures.testing';
import { detectMediaType, MEDIA_TYPES } from './detect';
import { pngClaiming } from './image/image-fixtures.testing';
import { odfPackage, pptxPackage, workbook, xlsxPackage } from './office/office-fixtures.testing';
import { ParseSandbox } from './sandbox/parse-sandbox';
import { sharedDocuments } from '@trove/testing';

/**
 * The corpus of broken inputs: generated here, plus every real file of the shared documents.
 * Each goes through the parse sandbox the worker uses; it must end in a parsed document or a
 * permanent error with a readable reason — never a crash, a hang or a retryable failure.
 */
const DOCUMENTS = sharedDocuments();
const TIMEOUT_MS = 60_000;
const sandbox = new ParseSandbox({ timeoutMs: TIMEOUT_MS, maxMemoryMb: 768, threads: 2 });
afterAll(() => sandbox.close());

const PERMANENT_CODES = new Set<string>([
  TroveErrorCode.EmptyDocument,
  TroveErrorCode.UndecodableDocument,
  TroveErrorCode.ParseFailed,
  TroveErrorCode.NoTextLayer,
  TroveErrorCode.EncryptedDocument,
  TroveErrorCode.CorruptDocument,
  TroveErrorCode.UnsafeArchive,
  TroveErrorCode.ParseLimitExceeded,
  TroveErrorCode.UnsupportedMediaType,
]);

interface Case {
  name: string;
  data: Buffer;
  /** Parse as this type (what an upload under a misleading name would be routed to). */
  mediaType?: string;
  /** The error code expected, when the outcome is known; otherwise either outcome is fine. */
  expect?: TroveErrorCode;
  /** `false`: the project's OCR switched off. */
  ocr?: false;
}

type Outcome =
  { ok: true; blocks: number } | { ok: false; code: string; message: string; permanent: boolean };

async function run(c: Case): Promise<Outcome> {
  let mediaType = c.mediaType;
  try {
    mediaType ??= detectMediaType(c.name, c.data).mediaType;
    const doc = await sandbox.parse({ fileName: c.name, mediaType, data: c.data, ocr: c.ocr });
    return { ok: true, blocks: doc.blocks.length };
  } catch (error) {
    if (!isTroveError(error)) throw error;
    return { ok: false, code: error.code, message: error.message, permanent: error.permanent };
  }
}

function realFile(folder: string, name: string): Buffer {
  return readFileSync(join(DOCUMENTS, folder, name));
}

async function generated(): Promise<Case[]> {
  const pdf = realFile('pdf', 'pdflatex-outline.pdf');
  const epub = realFile('epub', 'alice-in-wonderland-epub3.epub');
  const random = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919 + 13) % 256));
  const brokenXref = Buffer.from(
    pdf.toString('latin1').replace(/startxref\s+\d+/, 'startxref\n999999999'),
    'latin1',
  );
  const noXref = Buffer.from(
    pdf.toString('latin1').replaceAll('xref', 'xxxx').replaceAll(' obj', ' 0bj'),
    'latin1',
  );
  const bomb = await buildZip([
    { path: 'mimetype', data: 'application/epub+zip', compress: false },
    { path: 'OEBPS/zeros.xhtml', data: Buffer.alloc(300 * 1024 * 1024) },
  ]);
  const slip = patchEntry(
    await buildZip([
      { path: 'mimetype', data: 'application/epub+zip', compress: false },
      { path: 'aa/evil.xhtml', data: '<html/>' },
    ]),
    'aa/evil.xhtml',
    { name: '../evil.xhtml' },
  );
  const png = pngClaiming(2_000, 1_000);
  const xlsx = workbook([
    {
      name: 'Sales',
      rows: [
        ['Region', 'Q1'],
        ['North', 120],
      ],
    },
  ]);
  const pptx = await pptxPackage([{ title: 'One', body: ['text'], notes: ['notes'] }]);
  const odt = await odfPackage(MEDIA_TYPES.odt, '<text:h>Title</text:h><text:p>text</text:p>');
  const zeros = { path: 'media/zeros.bin', data: Buffer.alloc(300 * 1024 * 1024) };
  const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), random]);
  // A sheet claiming the whole grid, with a cell in the last row and column Excel allows.
  const far = await xlsxPackage(
    '<dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>near</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is></c></row></sheetData>',
  );
  const laughs = `<!DOCTYPE x [<!ENTITY a "${'ha'.repeat(50)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>`;
  const csvBinary = Buffer.from(random);
  return [
    ...[
      MEDIA_TYPES.pdf,
      MEDIA_TYPES.epub,
      MEDIA_TYPES.docx,
      MEDIA_TYPES.html,
      MEDIA_TYPES.markdown,
      MEDIA_TYPES.plainText,
      MEDIA_TYPES.odt,
      MEDIA_TYPES.rtf,
      MEDIA_TYPES.xlsx,
      MEDIA_TYPES.xls,
      MEDIA_TYPES.ods,
      MEDIA_TYPES.csv,
      MEDIA_TYPES.tsv,
      MEDIA_TYPES.pptx,
      MEDIA_TYPES.odp,
      MEDIA_TYPES.png,
      MEDIA_TYPES.jpeg,
      MEDIA_TYPES.tiff,
      MEDIA_TYPES.webp,
      MEDIA_TYPES.gif,
    ].map((mediaType) => ({
      name: `empty (${mediaType})`,
      data: Buffer.alloc(0),
      mediaType,
      expect: TroveErrorCode.EmptyDocument,
    })),
    {
      name: 'truncated-10.pdf',
      data: pdf.subarray(0, pdf.length / 10),
      expect: TroveErrorCode.CorruptDocument,
    },
    { name: 'truncated-50.pdf', data: pdf.subarray(0, pdf.length / 2) },
    { name: 'broken-startxref.pdf', data: brokenXref },
    { name: 'no-xref.pdf', data: noXref },
    {
      name: 'random-with-header.pdf',
      data: Buffer.concat([Buffer.from('%PDF-1.7\n'), random]),
      expect: TroveErrorCode.CorruptDocument,
    },
    {
      name: 'binary.md',
      data: random,
      mediaType: MEDIA_TYPES.markdown,
      expect: TroveErrorCode.UndecodableDocument,
    },
    { name: 'binary.html', data: random, mediaType: MEDIA_TYPES.html },
    {
      name: 'binary.epub',
      data: random,
      mediaType: MEDIA_TYPES.epub,
      expect: TroveErrorCode.CorruptDocument,
    },
    {
      name: 'binary.docx',
      data: random,
      mediaType: MEDIA_TYPES.docx,
      expect: TroveErrorCode.CorruptDocument,
    },
    {
      name: 'nested.html',
      data: Buffer.from('<html><body>' + '<div>'.repeat(100_000) + 'deep text' + '</div>'.repeat(100_000)),
    },
    {
      name: 'nested.md',
      data: Buffer.from('> '.repeat(20_000) + 'deep quote\n' + '- '.repeat(5_000) + 'item'),
    },
    { name: 'one-line.md', data: Buffer.from('word '.repeat(2_000_000)) },
    { name: 'one-line.txt', data: Buffer.from('слово '.repeat(1_000_000)) },
    { name: 'one-line.html', data: Buffer.from('<p>' + 'word '.repeat(2_000_000) + '</p>') },
    { name: 'bomb.epub', data: bomb, expect: TroveErrorCode.UnsafeArchive },
    { name: 'slip.epub', data: slip, expect: TroveErrorCode.UnsafeArchive },
    {
      name: 'bomb.png',
      data: pngClaiming(100_000, 100_000),
      expect: TroveErrorCode.ParseLimitExceeded,
    },
    { name: 'short-pixel-data.png', data: png },
    { name: 'random-with-header.png', data: Buffer.concat([png.subarray(0, 8), random]) },
    {
      name: 'random-with-header.tiff',
      data: Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0]), random]),
      expect: TroveErrorCode.CorruptDocument,
    },
    {
      name: 'random-with-header.jpg',
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), random]),
    },
    {
      name: 'random-with-header.gif',
      data: Buffer.concat([Buffer.from('GIF89a'), random]),
    },
    {
      name: 'random-with-header.webp',
      data: Buffer.concat([Buffer.from('RIFF\x00\x10\x00\x00WEBPVP8 ', 'latin1'), random]),
    },
    {
      name: 'truncated.epub',
      data: epub.subarray(0, epub.length / 2),
      expect: TroveErrorCode.CorruptDocument,
    },
    { name: 'truncated.xlsx', data: xlsx.subarray(0, xlsx.length / 2), mediaType: MEDIA_TYPES.xlsx },
    { name: 'truncated.pptx', data: pptx.subarray(0, pptx.length / 2), mediaType: MEDIA_TYPES.pptx },
    { name: 'truncated.odt', data: odt.subarray(0, odt.length / 2), mediaType: MEDIA_TYPES.odt },
    {
      name: 'bomb.xlsx',
      data: await buildZip([{ path: 'xl/workbook.xml', data: '<workbook/>' }, zeros]),
      expect: TroveErrorCode.UnsafeArchive,
    },
    {
      name: 'bomb.pptx',
      data: await pptxPackage([{ title: 'One' }], [zeros]),
      expect: TroveErrorCode.UnsafeArchive,
    },
    {
      name: 'bomb.ods',
      data: await odfPackage(MEDIA_TYPES.ods, '', { extra: [zeros] }),
      expect: TroveErrorCode.UnsafeArchive,
    },
    {
      name: 'slip.odt',
      data: patchEntry(
        await odfPackage(MEDIA_TYPES.odt, '<text:p>x</text:p>', {
          extra: [{ path: 'aa/evil.xml', data: 'x' }],
        }),
        'aa/evil.xml',
        {
          name: '../evil.xml',
        },
      ),
      expect: TroveErrorCode.UnsafeArchive,
    },
    {
      name: 'encrypted.xlsx',
      data: Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le')]),
      expect: TroveErrorCode.EncryptedDocument,
    },
    { name: 'random-ole.xls', data: ole, mediaType: MEDIA_TYPES.xls },
    { name: 'random-ole.pptx', data: ole, mediaType: MEDIA_TYPES.pptx, expect: TroveErrorCode.ParseFailed },
    {
      name: 'binary.xlsx',
      data: random,
      mediaType: MEDIA_TYPES.xlsx,
      expect: TroveErrorCode.CorruptDocument,
    },
    { name: 'binary.odp', data: random, mediaType: MEDIA_TYPES.odp, expect: TroveErrorCode.CorruptDocument },
    { name: 'binary.csv', data: csvBinary, expect: TroveErrorCode.UndecodableDocument },
    { name: 'far-cell.xlsx', data: far },
    { name: 'one-line.csv', data: Buffer.from('word,'.repeat(2_000_000)) },
    { name: 'many-rows.csv', data: Buffer.from('a,b\n'.repeat(500_000)) },
    {
      name: 'laughs.odt',
      data: await buildZip([
        { path: 'mimetype', data: MEDIA_TYPES.odt, compress: false },
        {
          path: 'content.xml',
          data: `<?xml version="1.0"?>${laughs}<office:document-content xmlns:office="o" xmlns:text="t"><office:body><office:text><text:p>&c;&c;&c;</text:p></office:text></office:body></office:document-content>`,
        },
      ]),
    },
    { name: 'random-with-header.rtf', data: Buffer.concat([Buffer.from('{\\rtf1 '), random]) },
    { name: 'nested.rtf', data: Buffer.from(`{\\rtf1 ${'{'.repeat(200_000)}deep${'}'.repeat(200_000)}}`) },
    { name: 'unclosed.rtf', data: Buffer.from(`{\\rtf1 ${'{\\b '.repeat(50_000)}text`) },
    { name: 'huge-bin.rtf', data: Buffer.from('{\\rtf1 {\\pict\\bin999999999 abc}} text}') },
  ];
}

describe('robustness corpus', () => {
  it('ends every generated broken input in a document or a permanent, readable error', async () => {
    for (const c of await generated()) {
      const started = Date.now();
      const outcome = await run(c);
      const label = `${c.name}: ${JSON.stringify(outcome).slice(0, 300)}`;
      expect(Date.now() - started, label).toBeLessThan(TIMEOUT_MS);
      if (c.expect) expect(outcome, label).toMatchObject({ ok: false, code: c.expect, permanent: true });
      if (!outcome.ok) {
        expect(outcome.permanent, label).toBe(true);
        expect(PERMANENT_CODES.has(outcome.code), label).toBe(true);
        expect(outcome.message.length, label).toBeGreaterThan(10);
      }
    }
  }, 300_000);

  it('parses or cleanly refuses every real shared document', async () => {
    // With OCR off: what OCR reads of these files is the PDF parser's and the scanned pages' specs'
    // (and, through the worker's sandbox, the e2e files test's); here every file goes through the
    // sandbox's other paths, where a scan ends in a permanent NO_TEXT_LAYER naming it.
    for (const folder of ['pdf', 'epub']) {
      for (const name of readdirSync(join(DOCUMENTS, folder))) {
        const outcome = await run({ name, data: realFile(folder, name), ocr: false });
        const label = `${folder}/${name}: ${JSON.stringify(outcome).slice(0, 300)}`;
        if (outcome.ok) expect(outcome.blocks, label).toBeGreaterThan(0);
        else
          expect(outcome, label).toMatchObject({ permanent: true, message: expect.stringContaining(name) });
      }
    }
  }, 300_000);
});
