/** Builders for test documents. */

const TOPICS = [
  'Elasticsearch stores inverted indices for text and HNSW graphs for vectors.',
  'Temporal workflows replay their event history to recover after a crash.',
  'Chunking splits long documents at headings and paragraphs before embedding.',
  'Reciprocal rank fusion combines keyword and vector rankings without tuning weights.',
  'Идемпотентная обработка гарантирует, что повторный запуск не создаёт дубликатов.',
  'Векторный поиск находит перефразированные вопросы на другом языке.',
];

/** A Markdown document with `sections` H2 sections of `paragraphs` paragraphs each. */
export function longMarkdown(title: string, sections: number, paragraphs = 4): string {
  const out = [`# ${title}`, ''];
  for (let s = 0; s < sections; s++) {
    out.push(`## Section ${s + 1}`, '');
    for (let p = 0; p < paragraphs; p++) {
      const sentences = Array.from(
        { length: 5 },
        (_, i) => `${TOPICS[(s + p + i) % TOPICS.length]} (note ${s}.${p}.${i})`,
      );
      out.push(sentences.join(' '), '');
    }
  }
  return out.join('\n');
}
