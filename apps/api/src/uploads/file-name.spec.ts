import { describe, expect, it } from 'vitest';
import { normalizeFileName } from './file-name';

describe('normalizeFileName', () => {
  it('normalises to NFC and trims, so one name typed two ways is one name', () => {
    expect(normalizeFileName(' cafe\u0301.md ')).toBe('caf\u00e9.md');
    expect(normalizeFileName('заметки 你好.md')).toBe('заметки 你好.md');
  });

  it('refuses bidirectional overrides and invisible characters with the code point named', () => {
    for (const [name, codePoint] of [
      ['invoice\u202Efdp.md', '202E'], // right-to-left override: shows as "invoicedm.pdf"
      ['a\u200Bb.md', '200B'], // zero-width space
      ['a\u200Db.md', '200D'], // zero-width joiner
      ['a\u2066b\u2069.md', '2066'], // isolates
      ['a\uFEFFb.md', 'FEFF'], // BOM inside a name
      ['a\u00ADb.md', '00AD'], // soft hyphen
      ['a\u2028b.md', '2028'], // line separator
      ['a\u0000b.md', '0000'],
    ]) {
      expect(() => normalizeFileName(name)).toThrow(`U+${codePoint}`);
    }
    expect(() => normalizeFileName('../a.md')).toThrow(/slashes/);
    expect(() => normalizeFileName('  ')).toThrow(/1-255/);
  });
});
