/** Most sentences a constrained answer may have: a short answer, and a small model cannot loop for ever. */
export const MAX_CITED_SENTENCES = 8;
/** Longest text before a marker: past it the model must cite (a long sentence is ~200 characters). */
export const MAX_UNCITED_CHARS = 240;

/**
 * A GBNF grammar (llama.cpp's constrained sampling) for an answer of cited sentences: either
 * exactly `refusal`, or up to MAX_CITED_SENTENCES sentences, each ending with one or more markers
 * naming given passages (`… [2].`, `… . [1][3]`), separated by a space or a line break. A
 * sentence ends only where it is cited: a full stop, `!` or `?` inside one must be followed by a
 * letter or digit (`v2.5`, `e.g`), and `。！？` cannot appear before the marker at all. So the model
 * cannot name a passage it was not given, cannot end a sentence (or the answer) uncited, and
 * cannot write more than MAX_UNCITED_CHARS characters without a marker. Text holds no brackets or
 * line breaks (they would read as markers or separators).
 */
export function citedSentencesGrammar(markers: readonly number[], refusal: string): string {
  const numbers = [...new Set(markers)].filter((n) => Number.isInteger(n) && n > 0);
  if (numbers.length === 0) throw new Error('a cited answer needs at least one passage marker');
  if (!/^[A-Z_]+$/.test(refusal)) throw new Error('the refusal token must be upper-case letters and _');
  const rest = Array.from({ length: MAX_CITED_SENTENCES - 1 }, () => '(sep sentence)?').join(' ');
  return [
    `root ::= refusal | answer`,
    `refusal ::= "${refusal}"`,
    `answer ::= sentence ${rest}`,
    `sentence ::= text close`,
    `close ::= end? " "? marker+ end?`,
    `text ::= plain piece{0,${MAX_UNCITED_CHARS - 1}}`,
    `piece ::= plain | " " | [.!?]+ plain`,
    String.raw`plain ::= [^\[\]\n\r \t.!?。！？]`,
    `marker ::= "[" number "]"`,
    `number ::= ${numbers.map((n) => `"${n}"`).join(' | ')}`,
    `end ::= [.!?。！？]`,
    String.raw`sep ::= " " | "\n"`,
  ].join('\n');
}
