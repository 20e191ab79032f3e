import type { EmbeddingProvider } from '@trove/domain';
import { sentenceMarkers, stripMarkers } from './markers';
import type { SentenceSupport } from './answer';
import { contentWords, cosine, lexicalOverlap, splitSentences } from './text';

/** A passage as the support check sees it: its words and its stored vector. */
export interface SupportPassage {
  marker: number;
  text: string;
  vector?: number[];
}

export interface SupportThresholds {
  minLexical: number;
  minSemantic: number;
  /**
   * Sentences citing nothing are checked too, and fail (a model's answer, where every sentence
   * must cite its passage); otherwise they are skipped (an extractive answer's heading line).
   */
  flagUncited?: boolean;
}

const LEADING_MARKERS = /^((?:\[\d{1,3}(?:\s*[,;]\s*\d{1,3})*\]\s*)+)/;

/**
 * The sentences of an answer with their markers. Models often write "… release. [1]": ICU then
 * starts the next sentence with "[1]", so markers leading a sentence go back to the one before.
 */
export function answerSentences(answer: string): string[] {
  const sentences: string[] = [];
  for (const { text } of splitSentences(answer)) {
    const leading = LEADING_MARKERS.exec(text);
    if (leading && sentences.length > 0) {
      sentences[sentences.length - 1] += ` ${leading[1].trim()}`;
      const rest = text.slice(leading[0].length).trim();
      if (rest) sentences.push(rest);
    } else {
      sentences.push(text);
    }
  }
  return sentences;
}

/**
 * Checks every cited sentence against the chunks it cites (and, with `flagUncited`, flags every
 * sentence citing nothing): supported when enough of its content words occur in one of them (language-aware words, light stemming), or, failing that, when its
 * embedding is close enough to one of their stored vectors. Only sentences the words leave in
 * doubt are embedded (one batch), so a quoted or closely paraphrased answer costs no model call.
 */
export async function checkSupport(
  answer: string,
  passages: SupportPassage[],
  embedder: EmbeddingProvider,
  thresholds: SupportThresholds,
  signal?: AbortSignal,
): Promise<SentenceSupport[]> {
  const byMarker = new Map(passages.map((p) => [p.marker, p]));
  const words = new Map(passages.map((p) => [p.marker, new Set(contentWords(p.text))]));
  const checks: SentenceSupport[] = [];
  for (const raw of answerSentences(answer)) {
    const markers = sentenceMarkers(raw).filter((m) => byMarker.has(m));
    const sentence = stripMarkers(raw);
    if (markers.length === 0) {
      if (thresholds.flagUncited && contentWords(sentence).length > 0) {
        checks.push({ sentence, markers: [], lexicalOverlap: 0, supported: false });
      }
      continue;
    }
    const lexical = Math.max(...markers.map((m) => lexicalOverlap(sentence, words.get(m)!)));
    checks.push({
      sentence,
      markers,
      lexicalOverlap: round(lexical),
      supported: lexical >= thresholds.minLexical,
    });
  }
  const doubtful = checks.filter(
    (c) => !c.supported && c.markers.some((m) => byMarker.get(m)!.vector !== undefined),
  );
  if (doubtful.length > 0) {
    const vectors = await embedder.embed(
      doubtful.map((c) => c.sentence),
      'query',
      { signal },
    );
    doubtful.forEach((check, i) => {
      const similarity = Math.max(
        ...check.markers.map((m) => {
          const vector = byMarker.get(m)!.vector;
          return vector ? cosine(vectors[i], vector) : -1;
        }),
      );
      check.semanticSimilarity = round(similarity);
      check.supported = similarity >= thresholds.minSemantic;
    });
  }
  return checks;
}

/**
 * The chunk sentences that best support `claims` (the answer sentences citing it): per claim,
 * the chunk sentence sharing most of its content words; distinct, in the chunk's order.
 */
export function supportingQuote(chunkText: string, claims: string[]): string {
  const sentences = splitSentences(chunkText);
  if (sentences.length === 0) return chunkText.trim();
  const sentenceWords = sentences.map((sentence) => new Set(contentWords(sentence.text)));
  const chosen = new Set<number>();
  for (const claim of claims) {
    const text = stripMarkers(claim);
    let best = -1;
    let bestScore = 0;
    sentenceWords.forEach((words, i) => {
      const score = lexicalOverlap(text, words);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    if (best >= 0) chosen.add(best);
  }
  if (chosen.size === 0) chosen.add(0);
  return [...chosen]
    .sort((a, b) => a - b)
    .map((i) => sentences[i].text)
    .join(' ');
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
