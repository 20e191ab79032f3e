import { distance } from 'fastest-levenshtein';

/**
 * Character error rate of OCR output against its ground truth: edit distance over the length of
 * the truth, after collapsing white space (line breaks and spacing are layout, not characters).
 * Spaces between CJK characters are not counted either, since Chinese writes none.
 */
export function characterErrorRate(truth: string, recognised: string): number {
  const expected = normalise(truth);
  if (expected.length === 0) return normalise(recognised).length === 0 ? 0 : 1;
  return distance(expected, normalise(recognised)) / expected.length;
}

function normalise(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, '')
    .trim();
}
