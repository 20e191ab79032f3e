/**
 * Large files generated on the fly (never committed): plain prose of one paragraph and a CSV of
 * one table, of about a given size, for the large-document tests and benchmark.
 */

const WORDS = ['the', 'otter', 'river', 'builds', 'a', 'den', 'under', 'willow', 'roots', 'at', 'dusk'];

/** Sentences of plain prose in one paragraph (no blank line), about `bytes` long. */
export function oneParagraph(bytes: number): string {
  const sentences: string[] = [];
  for (let length = 0, i = 0; length < bytes; i++) {
    const words = Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j) % WORDS.length]);
    const sentence = `Sentence ${i} says ${words.join(' ')}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** A CSV of about `bytes`: a header row and short records, which parse into one table. */
export function oneTableCsv(bytes: number): string {
  const rows = ['id,species,river,count,notes'];
  for (let length = 0, i = 0; length < bytes; i++) {
    const row = `${i},otter ${i % 13},river ${i % 29},${i % 97},seen near the willow roots at dusk`;
    rows.push(row);
    length += row.length + 1;
  }
  return `${rows.join('\n')}\n`;
}
