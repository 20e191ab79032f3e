import { CITATION_MARKER_GROUP, markerNumbers } from '@trove/api-client/browser';

/** A piece of an answer: text as written, or one citation marker (one place or several). */
export type AnswerPart = { kind: 'text'; text: string } | { kind: 'cite'; markers: number[] };

/** A marker still being written at the end of a streamed text: `[`, `[1`, `[1, `. */
const PARTIAL_MARKER = /\[[\d\s,;]*$/;

/**
 * The answer's text cut into text and citation markers. Markers side by side (`[1][2]`,
 * `[1] [3]`) and the numbers of a list (`[1, 2]`) make one marker; numbers are mapped to the
 * place they cite (`placeOf`), so passages of one place show once. A number no passage has keeps
 * its own. While streaming, a marker not yet complete at the end is held back.
 */
export function answerParts(
  text: string,
  placeOf: (marker: number) => number | undefined,
  options: { streaming?: boolean } = {},
): AnswerPart[] {
  const written = options.streaming ? text.replace(PARTIAL_MARKER, '') : text;
  const parts: AnswerPart[] = [];
  let end = 0;
  for (const match of written.matchAll(CITATION_MARKER_GROUP)) {
    const between = written.slice(end, match.index);
    const previous = parts.at(-1);
    const markers = markerNumbers(match[1]).map((n) => placeOf(n) ?? n);
    if (previous?.kind === 'cite' && !between.trim()) {
      previous.markers = [...new Set([...previous.markers, ...markers])];
    } else {
      if (between) parts.push({ kind: 'text', text: between });
      parts.push({ kind: 'cite', markers: [...new Set(markers)] });
    }
    end = match.index + match[0].length;
  }
  if (end < written.length) parts.push({ kind: 'text', text: written.slice(end) });
  return parts;
}

/** The places the parts cite, each once, in the order the answer first cites them. */
export function citedMarkers(parts: AnswerPart[]): number[] {
  return [...new Set(parts.flatMap((part) => (part.kind === 'cite' ? part.markers : [])))];
}
