import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { buildZip, docxPackage, type FixtureEntry, WORD_NS } from '../archive/zip-fixtures.testing';
import { DOCX_MEDIA_TYPE, DocxParser } from './docx.parser';

const parser = new DocxParser();
const parse = (data: Buffer, fileName = 'report.docx') =>
  parser.parse({ fileName, mediaType: DOCX_MEDIA_TYPE, data });

const W = WORD_NS;

/** A paragraph, optionally with a style id (`Heading1`, `Title`). */
const p = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A Word package whose body is `body` (or whose document.xml is `documentXml`). */
function docx(
  body: string,
  extra: FixtureEntry[] = [],
  documentXml?: string,
  compress = true,
): Promise<Buffer> {
  const xml =
    documentXml ??
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`;
  return docxPackage(xml, extra, compress);
}

describe('DocxParser', () => {
  it('maps Word headings to the heading path and the Title style to the title', async () => {
    const doc = await parse(
      await docx(
        [
          p('Quarterly Report', 'Title'),
          p('Opening words.'),
          p('Results', 'Heading1'),
          p('Revenue grew.'),
          p('Europe', 'Heading2'),
          p('Sales in Europe doubled.'),
          p('Outlook', 'Heading1'),
          p('Steady.'),
        ].join(''),
      ),
    );
    expect(doc.title).toBe('Quarterly Report');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Opening words.', headingPath: [] },
      { kind: 'paragraph', text: 'Revenue grew.', headingPath: ['Results'] },
      { kind: 'paragraph', text: 'Sales in Europe doubled.', headingPath: ['Results', 'Europe'] },
      { kind: 'paragraph', text: 'Steady.', headingPath: ['Outlook'] },
    ]);
  });

  it('keeps tables as rows and reads the core properties', async () => {
    const cell = (text: string) => `<w:tc>${p(text)}</w:tc>`;
    const table = `<w:tbl><w:tr>${cell('Region')}${cell('Sales')}</w:tr><w:tr>${cell('EU')}${cell('12')}</w:tr></w:tbl>`;
    const core =
      '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
      '<dc:title>Sales figures</dc:title><dc:creator>Ада Лавлейс</dc:creator></cp:coreProperties>';
    const doc = await parse(
      await docx(p('Figures', 'Heading1') + table, [{ path: 'docProps/core.xml', data: core }]),
      'sales.docx',
    );
    expect(doc.title).toBe('Sales figures');
    expect(doc.metadata).toEqual({ title: 'Sales figures', creator: 'Ада Лавлейс' });
    expect(doc.blocks).toEqual([
      { kind: 'table', text: '| Region | Sales |\n| --- | --- |\n| EU | 12 |', headingPath: ['Figures'] },
    ]);
  });

  it('passes mammoth warnings on, deduplicated', async () => {
    const doc = await parse(await docx([p('a', 'Fancy'), p('b', 'Fancy'), p('c', 'Other')].join('')));
    expect(doc.blocks.map((b) => b.text)).toEqual(['a', 'b', 'c']);
    expect(doc.warnings).toEqual([
      'Paragraph style with ID Fancy was referenced but not defined in the document',
      'Paragraph style with ID Other was referenced but not defined in the document',
      "Unrecognised paragraph style: 'null' (Style ID: Fancy)",
      "Unrecognised paragraph style: 'null' (Style ID: Other)",
    ]);
  });

  it('fails permanently on corrupt, non-Word, empty, legacy and password-protected files', async () => {
    const good = await docx(p('text'));
    await expect(parse(good.subarray(0, good.length - 10))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
    await expect(parse(await buildZip([{ path: 'notes.txt', data: 'hi' }]))).rejects.toMatchObject({
      code: TroveErrorCode.ParseFailed,
      message: expect.stringContaining('is not a Word document'),
    });
    await expect(parse(await docx(''))).rejects.toMatchObject({ code: TroveErrorCode.EmptyDocument });
    await expect(parse(Buffer.alloc(0), 'zero.docx')).rejects.toThrow('zero.docx is empty (0 bytes)');
    const broken = await docx('', [], `<w:document xmlns:w="${W}"><w:body><w:p>unclosed`);
    await expect(parse(broken)).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
      message: expect.stringMatching(/^report\.docx could not be read as a Word document: .*xmldom error/),
    });
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]);
    await expect(parse(ole, 'old.doc.docx')).rejects.toThrow(/legacy Word 97–2003/);
    const locked = Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le')]);
    await expect(parse(locked)).rejects.toMatchObject({ code: TroveErrorCode.EncryptedDocument });
  });

  it('reports a document nested too deeply for mammoth as a parse limit, not a crash', async () => {
    const depth = 10_000;
    const nested = `${'<w:sdt><w:sdtContent>'.repeat(depth)}${p('deep')}${'</w:sdtContent></w:sdt>'.repeat(depth)}`;
    const data = await docx(
      '',
      [],
      `<w:document xmlns:w="${W}"><w:body>${nested}</w:body></w:document>`,
      false,
    );
    await expect(parse(data, 'deep.docx')).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      message: expect.stringMatching(/^deep\.docx is nested too deeply to read/),
    });
  });

  it('checks the archive with safe-zip limits before mammoth inflates it', async () => {
    const bomb = await docx(p('text'), [
      { path: 'word/media/zeros.bin', data: Buffer.alloc(30 * 1024 * 1024) },
    ]);
    await expect(parse(bomb, 'bomb.docx')).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: expect.stringMatching(/^bomb\.docx was refused: the entry "word\/media\/zeros\.bin"/),
    });
  });
});
