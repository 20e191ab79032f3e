/**
 * Bounded windows for Intl.Segmenter. Walking a segmenter over one long string costs time that
 * grows faster than the string (on Node 20, word-segmenting 100 KB of one paragraph takes seconds
 * and 200 KB ten times as long), so long text is segmented a window at a time. Windows are cut
 * where segmenting each side alone finds the boundaries the whole text has: after a letter and
 * before a space, tab or line feed. There a word ends and no sentence does, and no word or
 * sentence rule looks across it (the sentence rules' look-ahead stops at the letter, their
 * look-behind at the space). Text without such a place near the window's end (CJK, a base64 blob,
 * one 40 MB "word") is cut at a weaker place: a punctuation mark, then any boundary between two
 * characters that does not split a surrogate pair or a combining sequence.
 */

/** Characters of text a segmenter is given at once. */
export const SEGMENT_WINDOW = 1024;

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
/** Punctuation that separates words everywhere (never joins letters or digits into one word). */
const SEPARATORS = new Set('/+|()[]{}<>=&%#*-'.split(''));

/** The cut points windowing uses, best first. */
const enum Cut {
  /** After a letter, before a space, tab or line feed: safe for words and sentences. */
  Space = 0,
  /** After a letter or digit, before separating punctuation: a word boundary. */
  Punctuation = 1,
  /** Between two characters, not inside a surrogate pair or before a combining mark. */
  Character = 2,
}

/**
 * The end of the window that starts at `start`: `text.length` when the rest fits in `size`
 * characters, otherwise the best cut point that leaves the window at least `shortest` characters
 * long (half the size unless told; see the file comment).
 */
export function windowEnd(text: string, start: number, size = SEGMENT_WINDOW, shortest = size >> 1): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  const floor = start + Math.max(1, shortest);
  let best = -1;
  let bestCut = Cut.Character + 1;
  for (let p = limit; p > floor; p--) {
    const cut = cutAt(text, p);
    if (cut === undefined || cut >= bestCut) continue;
    best = p;
    bestCut = cut;
    if (cut === Cut.Space) break;
  }
  if (best > 0) return best;
  // Not one boundary between characters there (a run of combining marks): cut at the window's
  // end, never inside a surrogate pair.
  if (!isLowSurrogate(text.charCodeAt(limit))) return limit;
  return limit - 1 > start ? limit - 1 : limit + 1;
}

/** The windows of `text` as `[start, end)` pairs, in order, covering it whole. */
export function* textWindows(text: string, size = SEGMENT_WINDOW): Generator<[number, number]> {
  for (let start = 0; start < text.length;) {
    const end = windowEnd(text, start, size);
    yield [start, end];
    start = end;
  }
}

/**
 * The sentences of `text` as one pass of a sentence segmenter over the whole text finds them,
 * found window by window: windows end where no sentence does, so a sentence that spans a window's
 * end is joined with the rest of it from the next window.
 */
export function* sentencesOf(
  segmenter: Intl.Segmenter,
  text: string,
  size = SEGMENT_WINDOW,
): Generator<string> {
  let held = '';
  for (const [start, end] of textWindows(text, size)) {
    let first = true;
    for (const { segment } of segmenter.segment(text.slice(start, end))) {
      if (!first) yield held;
      held = first ? held + segment : segment;
      first = false;
    }
  }
  if (held) yield held;
}

function cutAt(text: string, p: number): Cut | undefined {
  const next = text.charCodeAt(p);
  const previous = text.charCodeAt(p - 1);
  if (isLowSurrogate(next) || isHighSurrogate(previous) || previous === 0x200d) return undefined;
  if (next >= 0x300 && attaches(text[p], next)) return undefined;
  const space = next === 0x20 || next === 0x09 || next === 0x0a;
  if (!space && !(next < 0x80 && SEPARATORS.has(text[p]))) return Cut.Character;
  const letter = isLetter(text, p - 1, previous);
  if (space) return letter ? Cut.Space : Cut.Character;
  return letter || (previous >= 0x30 && previous <= 0x39) ? Cut.Punctuation : Cut.Character;
}

/** Whether a character attaches to the one before it: a combining mark, a joiner, a variation selector. */
function attaches(char: string, code: number): boolean {
  return code === 0x200c || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f) || MARK.test(char);
}

/** Whether the character ending at `index` (whose UTF-16 code is `code`) is a letter. */
function isLetter(text: string, index: number, code: number): boolean {
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return LETTER.test(isLowSurrogate(code) ? text.slice(index - 1, index + 1) : text[index]);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
