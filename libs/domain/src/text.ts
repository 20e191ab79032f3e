/**
 * Characters that are not text: lone UTF-16 surrogates (they have no UTF-8 form, so servers in
 * Python or Rust refuse them; under the `u` flag a surrogate pair is one code point and does not
 * match) and noncharacters.
 */
const NOT_TEXT = /[\uD800-\uDFFF\p{Noncharacter_Code_Point}]/gu;
/** CR (alone or before LF), VT and FF: line breaks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BREAK = /\r\n?|[\u000B\u000C]/g;
/** The other C0 controls but tab and line feed, and DEL: they carry no text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/g;
/** Any of the above (a quick test, so clean text is returned as it is). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY = /[\uD800-\uDFFF\p{Noncharacter_Code_Point}\u0000-\u0008\u000B-\u001F\u007F]/u;

/**
 * Text every embedding server and index accepts: lone surrogates and noncharacters become
 * U+FFFD, CR, VT and FF become line feeds, other C0 controls and DEL are dropped. Well-formed
 * text is returned as it is (the same string), so content hashes of clean text do not move.
 */
export function wellFormedText(text: string): string {
  if (!ANY.test(text)) return text;
  return text.replace(NOT_TEXT, '\uFFFD').replace(BREAK, '\n').replace(CONTROL, '');
}

/** The first lone surrogate of `text` and its 1-based position in characters (code points), if any. */
export function loneSurrogateIn(text: string): { codePoint: string; position: number } | undefined {
  let position = 0;
  for (const c of text) {
    position += 1;
    if (c.length === 1 && c >= '\uD800' && c <= '\uDFFF') {
      return { codePoint: `U+${c.charCodeAt(0).toString(16).toUpperCase()}`, position };
    }
  }
  return undefined;
}
