import type { EmbeddingProvider } from '@trove/domain';
import { contentWords, cosine, splitSentences } from './text';

/** A passage whose sentences may be quoted, best first. */
export interface ExtractivePassage {
  marker: number;
  documentId: string;
  position: number;
  text: string;
}

export interface ExtractedSentence {
  marker: number;
  text: string;
  score: number;
}

/** Sentences that are too short to answer anything on their own (a lone heading, "Example:"). */
const MIN_CONTENT_WORDS = 3;
/** Candidates embedded per answer: bounds the cost on long chunks. */
const MAX_CANDIDATES = 60;
/** Weight of the question-word coverage next to the embedding cosine. */
const LEXICAL_WEIGHT = 0.2;

/**
 * The sentences of the top passages that best answer the question: scored by the cosine of their
 * embedding with the question's plus a share of the question's content words they contain; the
 * best `count` are returned in reading order (documents in the order their best passage ranked,
 * then by position in the document, then by place in the chunk), so the quotes read as the
 * sources do.
 */
export async function extractSentences(
  question: string,
  questionVector: number[] | undefined,
  passages: ExtractivePassage[],
  embedder: EmbeddingProvider,
  count: number,
  signal?: AbortSignal,
): Promise<ExtractedSentence[]> {
  const candidates: { passage: ExtractivePassage; text: string; start: number }[] = [];
  for (const passage of passages) {
    for (const sentence of splitSentences(passage.text)) {
      if (contentWords(sentence.text).length < MIN_CONTENT_WORDS) continue;
      candidates.push({ passage, text: sentence.text, start: sentence.start });
    }
  }
  if (candidates.length === 0) {
    // Every sentence is short (a table row, a list of terms): quote the best passage's first line.
    const first = passages[0] && splitSentences(passages[0].text)[0];
    return first ? [{ marker: passages[0].marker, text: first.text, score: 0 }] : [];
  }
  const considered = candidates.slice(0, MAX_CANDIDATES);
  const vectors = questionVector
    ? await embedder.embed(
        considered.map((c) => c.text),
        'passage',
        { signal },
      )
    : undefined;
  const questionWords = new Set(contentWords(question));
  const scored = considered.map((candidate, i) => {
    const lexical = questionWords.size ? coverage(questionWords, candidate.text) : 0;
    const semantic = vectors && questionVector ? cosine(questionVector, vectors[i]) : 0;
    return { ...candidate, score: semantic + LEXICAL_WEIGHT * lexical };
  });
  const best = [...scored].sort((a, b) => b.score - a.score).slice(0, count);
  const documentRank = new Map<string, number>();
  passages.forEach((p, i) => {
    if (!documentRank.has(p.documentId)) documentRank.set(p.documentId, i);
  });
  best.sort(
    (a, b) =>
      documentRank.get(a.passage.documentId)! - documentRank.get(b.passage.documentId)! ||
      a.passage.position - b.passage.position ||
      a.start - b.start,
  );
  return best.map((s) => ({
    marker: s.passage.marker,
    text: s.text,
    score: Math.round(s.score * 1000) / 1000,
  }));
}

/** Share of the question's content words that occur in the sentence. */
function coverage(questionWords: Set<string>, sentence: string): number {
  const words = new Set(contentWords(sentence));
  let found = 0;
  for (const word of questionWords) if (words.has(word)) found++;
  return found / questionWords.size;
}

/** The sentence with its citation marker before its closing punctuation: "… rollback [2]." */
export function withMarker(sentence: string, marker: number): string {
  const match = /([.!?。！？…:;：；]+)$/u.exec(sentence);
  if (!match) return `${sentence} [${marker}]`;
  const body = sentence.slice(0, -match[1].length).trimEnd();
  return `${body} [${marker}]${match[1]}`;
}
