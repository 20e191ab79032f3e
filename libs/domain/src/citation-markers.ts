/**
 * Inline citation markers in an answer's text: `[1]`, `[2, 3]`, `[1][4]`. The answerer checks and
 * rewrites them (libs/answering) and clients render them, from this one definition.
 */

/**
 * `[3]` or a list `[1, 2]` / `[1,2;4]` (models write both); never `[x]` or a Markdown link label.
 * Global: use it with `matchAll` and `replace`, which do not keep its position between calls.
 */
export const CITATION_MARKER_GROUP = /\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\](?!\()/g;

/** The numbers of a group's list, in order: `2, 3` → [2, 3]. */
export function markerNumbers(list: string): number[] {
  return list.split(/[,;]/).map((part) => Number(part.trim()));
}
