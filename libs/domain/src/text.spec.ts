import { describe, expect, it } from 'vitest';
import { loneSurrogateIn, wellFormedText } from './text';

describe('wellFormedText', () => {
  it('replaces lone surrogates, high or low, with U+FFFD and keeps surrogate pairs', () => {
    expect(wellFormedText('a\uD800b')).toBe('a\uFFFDb');
    expect(wellFormedText('a\uDC00b')).toBe('a\uFFFDb');
    expect(wellFormedText('end\uD83D')).toBe('end\uFFFD');
    expect(wellFormedText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
    expect(wellFormedText('smile \u{1F600} ok')).toBe('smile \u{1F600} ok');
  });

  it('replaces noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF, U+1FFFF…) with U+FFFD', () => {
    expect(wellFormedText('a\uFFFEb\uFFFFc\uFDD0d\u{1FFFF}e\u{10FFFE}')).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFD',
    );
  });

  it('drops C0 controls and DEL, keeps tab and newline, and turns CR, VT and FF into line breaks', () => {
    expect(wellFormedText('a\u0000b\u0001c\u001Fd\u007Fe')).toBe('abcde');
    expect(wellFormedText('col\tcol\nline')).toBe('col\tcol\nline');
    expect(wellFormedText('one\r\ntwo\rthree\u000Bfour\u000Cfive')).toBe('one\ntwo\nthree\nfour\nfive');
  });

  it('returns well-formed text unchanged (the same string), so content hashes do not move', () => {
    const text = 'Grüße — 日本語, emoji \u{1F600}, C1 \u0085 kept, private use \uE000 kept';
    expect(wellFormedText(text)).toBe(text);
    expect(wellFormedText('')).toBe('');
  });

  it('its result is well-formed UTF-16 and survives a UTF-8 round trip', () => {
    const dirty = 'x\uD800\uDBFF\uDC00\uDC00y\u0000';
    const clean = wellFormedText(dirty);
    expect(Buffer.from(clean, 'utf8').toString('utf8')).toBe(clean);
    expect(loneSurrogateIn(clean)).toBeUndefined();
  });
});

describe('loneSurrogateIn', () => {
  it('names the first lone surrogate and its 1-based position in characters', () => {
    expect(loneSurrogateIn('ab\uD800c')).toEqual({ codePoint: 'U+D800', position: 3 });
    expect(loneSurrogateIn('\u{1F600}\uDC01')).toEqual({ codePoint: 'U+DC01', position: 2 });
  });

  it('finds none in well-formed text', () => {
    expect(loneSurrogateIn('pair \u{1F600} and NUL \u0000')).toBeUndefined();
  });
});
