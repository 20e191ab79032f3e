/**
 * Inline citation markers (libs/domain `CITATION_MARKER_GROUP`): `[1]`, `[2, 3]`, `[1][4]`. A
 * marker is valid when it names a passage the model was given (1 … passageCount).
 */
import { CITATION_MARKER_GROUP as MARKER_GROUP, markerNumbers } from '@trove/domain';

export interface MarkerCheck {
  /** Distinct valid marker numbers, in order of first use. */
  valid: number[];
  /** Distinct marker numbers naming no passage, in order of first use. */
  invalid: number[];
  /** No marker at all. */
  missing: boolean;
}

/** Every marker number in `text`, in order, repeats included. */
export function parseMarkers(text: string): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(MARKER_GROUP)) {
    numbers.push(...markerNumbers(match[1]));
  }
  return numbers;
}

export function checkMarkers(text: string, passageCount: number): MarkerCheck {
  const valid: number[] = [];
  const invalid: number[] = [];
  const numbers = parseMarkers(text);
  for (const n of numbers) {
    const list = n >= 1 && n <= passageCount ? valid : invalid;
    if (!list.includes(n)) list.push(n);
  }
  return { valid, invalid, missing: numbers.length === 0 };
}

/**
 * The text with markers naming no passage removed (a group keeps its valid numbers:
 * `[2, 9]` → `[2]`), and the space a removed marker leaves before punctuation tidied.
 */
export function removeInvalidMarkers(text: string, passageCount: number): string {
  return text
    .replace(MARKER_GROUP, (_group, list: string) => {
      const kept = markerNumbers(list).filter((n) => n >= 1 && n <= passageCount);
      return kept.length ? `[${kept.join(', ')}]` : '';
    })
    .replace(/[ \t]+([.,;:!?。，；！？])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The markers of one sentence (its cited passages), distinct, in order. */
export function sentenceMarkers(sentence: string): number[] {
  return [...new Set(parseMarkers(sentence))];
}

/** The sentence without its markers, for comparing it with a passage. */
export function stripMarkers(sentence: string): string {
  return sentence
    .replace(MARKER_GROUP, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?。，；！？])/g, '$1')
    .trim();
}

/** The text with every marker number replaced by `to(n)`, repeats within a group dropped (`[1, 3]` → `[1]`). */
export function renumberMarkers(text: string, to: (n: number) => number): string {
  return text
    .replace(MARKER_GROUP, (_group, list: string) => {
      const numbers = [...new Set(markerNumbers(list).map(to))];
      return `[${numbers.join(', ')}]`;
    })
    .replace(/(\[[\d, ]+\])(?:\s*\1)+/g, '$1');
}

/**
 * The text without a marker left unfinished at its end (`… back [1][`, `… back [2`): an answer cut
 * by its token limit must not end in a bracket the marker checks cannot read.
 */
export function withoutUnfinishedMarker(text: string): string {
  return text.replace(/\s*\[[\d,\s]*$/, '').trimEnd();
}
