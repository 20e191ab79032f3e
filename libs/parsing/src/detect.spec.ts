import { describe, expect, it } from 'vitest';
import { detectMediaType } from './detect';

describe('detectMediaType', () => {
  it('accepts UTF-8 Markdown and text by extension', () => {
    expect(detectMediaType('a.md', Buffer.from('# Привет'))).toEqual({ mediaType: 'text/markdown' });
    expect(detectMediaType('README', Buffer.from('hello'))).toEqual({ mediaType: 'text/plain' });
    expect(detectMediaType('notes.TXT', Buffer.from('你好'))).toEqual({ mediaType: 'text/plain' });
  });

  it('decides by content: a PDF renamed to .md is rejected and named', () => {
    expect(() => detectMediaType('fake.md', Buffer.from('%PDF-1.7\n...'))).toThrow(
      'fake.md is a PDF file (application/pdf); supported types are Markdown and plain text',
    );
    expect(() => detectMediaType('fake.md', Buffer.from([0x61, 0, 0x62]))).toThrow(/NUL bytes/);
    expect(() => detectMediaType('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20]))).toThrow(
      /not UTF-8/,
    );
  });

  it('rejects text files of unsupported types', () => {
    expect(() => detectMediaType('page.html', Buffer.from('<html></html>'))).toThrow(
      /\.html is not supported/,
    );
  });

  it('accepts a multi-byte character cut at the sniff boundary', () => {
    const big = Buffer.concat([Buffer.alloc(64 * 1024 - 1, 0x61), Buffer.from('ж'), Buffer.from('tail')]);
    expect(detectMediaType('big.md', big)).toEqual({ mediaType: 'text/markdown' });
  });
});
