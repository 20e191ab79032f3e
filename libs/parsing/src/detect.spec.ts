import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '@trove/domain';
import { detectMediaType } from './detect';
import { odfPackage, pptxPackage, workbook } from './office/office-fixtures.testing';

describe('detectMediaType', () => {
  it('accepts UTF-8 Markdown and text by extension', () => {
    expect(detectMediaType('a.md', Buffer.from('# Привет'))).toEqual({ mediaType: 'text/markdown' });
    expect(detectMediaType('README', Buffer.from('hello'))).toEqual({ mediaType: 'text/plain' });
    expect(detectMediaType('notes.TXT', Buffer.from('你好'))).toEqual({ mediaType: 'text/plain' });
  });

  it('decides by content: a PDF, EPUB or DOCX is recognised whatever its name', () => {
    expect(detectMediaType('fake.md', Buffer.from('%PDF-1.7\n...'))).toEqual({
      mediaType: 'application/pdf',
    });
    const epub = Buffer.concat([
      Buffer.from([0x50, 0x4b, 3, 4]),
      Buffer.alloc(26),
      Buffer.from('mimetypeapplication/epub+zip'),
    ]);
    expect(detectMediaType('book.bin', epub).mediaType).toBe('application/epub+zip');
    const docx = Buffer.concat([
      Buffer.from([0x50, 0x4b, 3, 4]),
      Buffer.alloc(40),
      Buffer.from('word/document.xml'),
    ]);
    expect(detectMediaType('report', docx).mediaType).toContain('wordprocessingml');
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(40), Buffer.from('docs/a.md')]);
    expect(() => detectMediaType('site.zip', zip)).toThrow(/ZIP archive: import a zipped folder/);
    expect(detectMediaType('page.txt', Buffer.from('<!DOCTYPE html><html><body>x')).mediaType).toBe(
      'text/html',
    );
    expect(detectMediaType('page.htm', Buffer.from([0xcf, 0xf0, 0xe8])).mediaType).toBe('text/html');
    expect(() => detectMediaType('notes.md', Buffer.from([0x1f, 0x8b, 8, 0]))).toThrow(
      'notes.md is a gzip archive file (application/gzip); supported types are PDF, EPUB, DOCX, ODT, RTF, XLSX, XLS, ODS, CSV, TSV, PPTX, ODP, HTML, Markdown, plain text and images (PNG, JPEG, TIFF, WebP, GIF)',
    );
    expect(() => detectMediaType('fake.md', Buffer.from([0x61, 0, 0x62]))).toThrow(/NUL bytes/);
    expect(() => detectMediaType('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20]))).toThrow(
      /not UTF-8/,
    );
  });

  it('recognises images by their magic numbers, whatever they are called', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
    expect(detectMediaType('image.md', png).mediaType).toBe('image/png');
    expect(detectMediaType('photo', Buffer.from([0xff, 0xd8, 0xff, 0xe1])).mediaType).toBe('image/jpeg');
    expect(detectMediaType('a.gif', Buffer.from('GIF89a')).mediaType).toBe('image/gif');
    expect(detectMediaType('scan.tif', Buffer.from([0x49, 0x49, 0x2a, 0, 8])).mediaType).toBe('image/tiff');
    expect(detectMediaType('scan.tif', Buffer.from([0x4d, 0x4d, 0, 0x2a, 0])).mediaType).toBe('image/tiff');
    expect(detectMediaType('x.webp', Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1')).mediaType).toBe(
      'image/webp',
    );
    // A RIFF that is not WebP (a WAV file) is not an image.
    expect(() => detectMediaType('x.webp', Buffer.from('RIFF\x10\0\0\0WAVEfmt ', 'latin1'))).toThrow(
      /NUL bytes/,
    );
    expect(detectMediaType('empty.jpeg', Buffer.alloc(0)).mediaType).toBe('image/jpeg');
  });

  it('rejects text files of unsupported types', () => {
    expect(() => detectMediaType('style.css', Buffer.from('body {}'))).toThrow(/\.css is not supported/);
  });

  it('accepts a multi-byte character cut at the sniff boundary', () => {
    const big = Buffer.concat([Buffer.alloc(64 * 1024 - 1, 0x61), Buffer.from('ж'), Buffer.from('tail')]);
    expect(detectMediaType('big.md', big)).toEqual({ mediaType: 'text/markdown' });
  });

  it('takes a file for a PDF only when %PDF- starts it (after at most a BOM and whitespace)', () => {
    expect(detectMediaType('a.md', Buffer.from('\uFEFF \r\n%PDF-1.4\n')).mediaType).toBe('application/pdf');
    expect(
      detectMediaType('notes.md', Buffer.from('# How to spot a PDF\n\nFiles begin with %PDF-1.7.\n')),
    ).toEqual({
      mediaType: 'text/markdown',
    });
    expect(detectMediaType('x.txt', Buffer.from('junk%PDF-1.7\n')).mediaType).toBe('text/plain');
  });

  it('leaves an empty file of a supported extension to its parser, which says it is empty', () => {
    expect(detectMediaType('empty.pdf', Buffer.alloc(0))).toEqual({ mediaType: 'application/pdf' });
    expect(detectMediaType('empty.docx', Buffer.alloc(0)).mediaType).toContain('wordprocessingml');
    expect(() => detectMediaType('empty.css', Buffer.alloc(0))).toThrow(/\.css is not supported/);
  });

  it('recognises a DOCX streamed to disk from the samples of its start and end', () => {
    const head = Buffer.concat([
      Buffer.from([0x50, 0x4b, 3, 4]),
      Buffer.alloc(40),
      Buffer.from('[Content_Types].xml'),
    ]);
    const tail = Buffer.from('PK\x01\x02....word/document.xml....PK\x05\x06');
    expect(detectMediaType('report.docx', { head, tail, size: 5_000_000 }).mediaType).toContain(
      'wordprocessingml',
    );
    expect(() =>
      detectMediaType('site.zip', { head, tail: Buffer.from('docs/a.md'), size: 5_000_000 }),
    ).toThrow(/ZIP archive/);
  });

  it('recognises Office and OpenDocument files by their parts, whatever they are called', async () => {
    expect(detectMediaType('data.bin', workbook([{ name: 'S', rows: [['a']] }])).mediaType).toBe(
      MEDIA_TYPES.xlsx,
    );
    expect(detectMediaType('data.bin', workbook([{ name: 'S', rows: [['a']] }], 'xls')).mediaType).toBe(
      MEDIA_TYPES.xls,
    );
    expect(detectMediaType('data', workbook([{ name: 'S', rows: [['a']] }], 'ods')).mediaType).toBe(
      MEDIA_TYPES.ods,
    );
    expect(detectMediaType('deck', await pptxPackage([{ title: 'x' }])).mediaType).toBe(MEDIA_TYPES.pptx);
    expect(detectMediaType('notes', await odfPackage(MEDIA_TYPES.odt, '')).mediaType).toBe(MEDIA_TYPES.odt);
    expect(detectMediaType('talk', await odfPackage(MEDIA_TYPES.odp, '')).mediaType).toBe(MEDIA_TYPES.odp);
    expect(detectMediaType('memo.txt', Buffer.from('{\\rtf1\\ansi hello}')).mediaType).toBe(MEDIA_TYPES.rtf);
  });

  it('sends a password-protected Office file to the parser its name names, and refuses legacy Word files', () => {
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(100)]);
    const locked = Buffer.concat([ole, Buffer.from('EncryptedPackage', 'utf16le')]);
    expect(detectMediaType('q3.xlsx', locked).mediaType).toBe(MEDIA_TYPES.xlsx);
    expect(detectMediaType('deck.pptx', locked).mediaType).toBe(MEDIA_TYPES.pptx);
    expect(() => detectMediaType('locked.bin', locked)).toThrow(/password-protected Office file/);
    const doc = Buffer.concat([ole, Buffer.from('WordDocument\u0000', 'utf16le')]);
    expect(() => detectMediaType('old.doc', doc)).toThrow(/legacy Word 97–2003 \(\.doc\) file/);
    expect(detectMediaType('old.xls', ole).mediaType).toBe(MEDIA_TYPES.xls);
  });

  it('takes CSV and TSV by extension in any encoding, UTF-16 with its NUL bytes included', () => {
    expect(detectMediaType('a.csv', Buffer.from('a;b\n1;2', 'utf16le')).mediaType).toBe(MEDIA_TYPES.csv);
    expect(detectMediaType('a.tsv', Buffer.from([0xcf, 0xf0, 0x09, 0x31])).mediaType).toBe(MEDIA_TYPES.tsv);
    expect(detectMediaType('empty.xlsx', Buffer.alloc(0)).mediaType).toBe(MEDIA_TYPES.xlsx);
  });
});
