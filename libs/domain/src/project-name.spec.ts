import { describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode } from './errors';
import { normalizeProjectName, normalizeSourceName, projectNameKey } from './project-name';

function refusal(name: string): string | undefined {
  try {
    normalizeProjectName(name);
    return undefined;
  } catch (error) {
    expect((error as { code: string }).code).toBe(TroveErrorCode.BadRequest);
    return (error as Error).message;
  }
}

describe('normalizeProjectName', () => {
  it('trims and normalises to NFC', () => {
    expect(normalizeProjectName('  Cafe\u0301 docs ')).toBe('Caf\u00e9 docs');
    expect(normalizeProjectName('Документация 文档')).toBe('Документация 文档');
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['newline', 'a\nb'],
    ['tab', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['C1 control', 'a\u0085b'],
    ['right-to-left override', 'invoice\u202Egpj.exe'],
    ['left-to-right isolate', 'a\u2066b\u2069'],
    ['right-to-left mark', 'a\u200Fb'],
    ['zero-width space', 'a\u200Bb'],
    ['zero-width joiner', 'a\u200Db'],
    ['byte order mark', 'a\uFEFFb'],
    ['soft hyphen', 'a\u00ADb'],
    ['line separator', 'a\u2028b'],
    ['private use', 'a\uE000b'],
    ['lone surrogate', 'a\uD800b'],
  ])('refuses a %s', (_label, name) => {
    expect(refusal(name)).toMatch(/control, invisible or bidirectional/);
  });

  it('refuses empty and overlong names, counting code points', () => {
    expect(refusal('   ')).toMatch(/1 to 200/);
    expect(refusal('x'.repeat(201))).toMatch(/1 to 200/);
    expect(normalizeProjectName('😀'.repeat(200))).toHaveLength(400);
  });
});

describe('projectNameKey', () => {
  it('is the same for names that differ only in case, normalisation or surrounding space', () => {
    expect(projectNameKey(' Café Docs')).toBe(projectNameKey('CAFE\u0301 DOCS '));
    expect(projectNameKey('Docs')).not.toBe(projectNameKey('Docs 2'));
  });
});

describe('normalizeSourceName', () => {
  const sourceRefusal = (name: unknown) => {
    try {
      normalizeSourceName(name);
      return undefined;
    } catch (error) {
      expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
      return (error as Error).message;
    }
  };

  it('keeps a readable name, NFC and trimmed', () => {
    expect(normalizeSourceName('  Cafe\u0301 wiki ')).toBe('Café wiki');
  });

  it.each([
    ['right-to-left override', 'invoice\u202Efdp.exe'],
    ['zero-width space', 'Team\u200Bwiki'],
    ['line feed', 'Team wiki\nINFO forged'],
    ['NUL', 'Team\u0000wiki'],
  ])('refuses a %s with a readable message', (_label, name) => {
    expect(sourceRefusal(name)).toMatch(/^a source name cannot contain control, invisible or bidirectional/);
  });

  it('refuses 5,000 characters, and what is not text (a repeated multipart field)', () => {
    expect(sourceRefusal('x'.repeat(5_000))).toBe('a source name needs 1 to 200 characters');
    expect(sourceRefusal(['a', 'b'])).toBe('a source name must be text');
  });
});
