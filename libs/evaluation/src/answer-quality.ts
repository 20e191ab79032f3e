/** Scores of an answer-quality run: citation precision, quotes, refusals, duplicates, latency. */
import { detectLanguage } from '@trove/domain';
import type { AnswerQuestion, AnswerUnit } from './answer-questions';
import { percentile } from './metrics';

/** One citation of an answer, in the terms the scores need. */
export interface OutcomeCitation {
  /** File name of the cited document. */
  document: string;
  /** Where in the document it points (its link, anchor or page): two equal places are one citation listed twice. */
  place: string;
  quote: string;
}

/** What one answer gave, in the terms the scores need. */
export interface AnswerOutcome {
  question: AnswerQuestion;
  /** The answer said the knowledge base does not hold enough. */
  refused: boolean;
  /** File names of the cited documents, one per citation. */
  citedDocuments: string[];
  /** The citations with their places and quotes; without them quotes and duplicates are not scored. */
  citations?: OutcomeCitation[];
  unsupportedSentences: number;
  latencyMs: number;
}

/** Which half of the set a question belongs to: thresholds are chosen on `train`, reported on `test`. */
export type AnswerSplit = 'train' | 'test';

export interface AnswerScores {
  inDomain: number;
  outOfDomain: number;
  /** Citations of in-domain answers that name an expected document, over all their citations. */
  citationPrecision: number;
  /** In-domain questions with at least one citation of an expected document. */
  hitRate: number;
  /** In-domain questions refused (false refusals). */
  inDomainRefusalRate: number;
  /** Out-of-domain questions refused (the right outcome). */
  outOfDomainRefusalRate: number;
  /** Questions with answer strings whose answer quotes one of them from an expected document. */
  answerQuotedRate: number;
  /** Questions with answer strings (the denominator of answerQuotedRate). */
  quotable: number;
  /** Of those, the answers quoting one (the numerator). */
  quoted: number;
  /** In-domain questions refused, and out-of-domain ones refused (numerators of the two rates). */
  inDomainRefused: number;
  outOfDomainRefused: number;
  /** Cross-lingual in-domain questions refused. */
  crossLingualRefusalRate: number;
  /** Citations that repeat an earlier citation of the same answer (same document and place). */
  duplicateCitations: number;
  /** Cited sentences flagged unsupported, over every answer. */
  unsupportedSentences: number;
  p50Ms: number;
  p95Ms: number;
}

/** The scores of the whole set, and of each split. */
export type AnswerReport = AnswerScores & { bySplit: Record<AnswerSplit, AnswerScores> };

/**
 * The split of a question: a stable hash of its text (FNV-1a), so a question keeps its half when
 * others are added and no one picks which questions the thresholds are tuned on.
 */
export function answerSplit(question: AnswerQuestion): AnswerSplit {
  let hash = 0x811c9dc5;
  for (const char of question.question) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? 'train' : 'test';
}

/** Whether `quote` holds `answer`, case, spacing and Unicode forms aside. */
export function quotes(quote: string, answer: string): boolean {
  const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(quote).includes(norm(answer));
}

/** What an answer result gives the scores: `documentName` maps a document id to its file name. */
export function answerOutcome(
  question: AnswerQuestion,
  result: {
    insufficientContext: boolean;
    citations: {
      documentId: string;
      chunkId: string;
      citationUrl?: string;
      headingPath: string[];
      quote: string;
    }[];
    verification: { unsupportedSentences: unknown[] };
  },
  documentName: (documentId: string) => string,
  latencyMs: number,
): AnswerOutcome {
  const citations = result.citations.map((c) => ({
    document: documentName(c.documentId),
    place: c.citationUrl ?? c.headingPath.join(' › '),
    quote: c.quote,
  }));
  return {
    question,
    refused: result.insufficientContext,
    citedDocuments: citations.map((c) => c.document),
    citations,
    unsupportedSentences: result.verification.unsupportedSentences.length,
    latencyMs,
  };
}

/** The language a question is asked in (by its script: Cyrillic, Han, else English). */
export type AnswerLanguage = 'en' | 'ru' | 'zh';

export function answerLanguage(question: AnswerQuestion): AnswerLanguage {
  const language = detectLanguage(question.question);
  return language === 'ru' ? 'ru' : language === 'cjk' ? 'zh' : 'en';
}

/**
 * Where an in-domain question's answer sits (`unlabelled`: a question without answer strings,
 * scored on citations and refusals only); `out-of-domain` for the questions the corpus cannot answer.
 */
export type AnswerKind = AnswerUnit | 'unlabelled' | 'out-of-domain';

export function answerKind(question: AnswerQuestion): AnswerKind {
  if (question.expected.length === 0) return 'out-of-domain';
  return question.answers?.length ? (question.unit ?? 'sentence') : 'unlabelled';
}

/** One row of a breakdown: a split (or the whole set) and a slice of it, with its scores. */
export interface AnswerBreakdownRow {
  split: AnswerSplit | 'all';
  /**
   * `all`, a kind (`code-line`, `out-of-domain`, …), a language (`en`, `ru`, `zh`), `cross-lingual`
   * or `nested`.
   */
  group: string;
  scores: AnswerScores;
}

const KINDS: AnswerKind[] = [
  'sentence',
  'code-line',
  'table-row',
  'list-item',
  'toggle-child',
  'unlabelled',
  'out-of-domain',
];
const LANGUAGES: AnswerLanguage[] = ['en', 'ru', 'zh'];

/**
 * The scores of the whole set and of each split, each also by kind of answer, by the question's
 * language, for cross-lingual questions and for answers in nested blocks; empty slices are left out.
 */
export function answerBreakdown(outcomes: AnswerOutcome[]): AnswerBreakdownRow[] {
  const groups: [string, (q: AnswerQuestion) => boolean][] = [
    ['all', () => true],
    ...KINDS.map((kind): [string, (q: AnswerQuestion) => boolean] => [kind, (q) => answerKind(q) === kind]),
    ...LANGUAGES.map((language): [string, (q: AnswerQuestion) => boolean] => [
      language,
      (q) => answerLanguage(q) === language,
    ]),
    ['cross-lingual', (q) => q.expected.length > 0 && !!q.crossLingual],
    ['nested', (q) => q.expected.length > 0 && !!q.nested],
  ];
  const rows: AnswerBreakdownRow[] = [];
  for (const split of ['all', 'train', 'test'] as const) {
    const inSplit = outcomes.filter((o) => split === 'all' || answerSplit(o.question) === split);
    for (const [group, test] of groups) {
      const slice = inSplit.filter((o) => test(o.question));
      if (slice.length > 0) rows.push({ split, group, scores: scoreSet(slice) });
    }
  }
  return rows;
}

export function scoreAnswers(outcomes: AnswerOutcome[]): AnswerReport {
  return {
    ...scoreSet(outcomes),
    bySplit: {
      train: scoreSet(outcomes.filter((o) => answerSplit(o.question) === 'train')),
      test: scoreSet(outcomes.filter((o) => answerSplit(o.question) === 'test')),
    },
  };
}

function scoreSet(outcomes: AnswerOutcome[]): AnswerScores {
  const inDomain = outcomes.filter((o) => o.question.expected.length > 0);
  const outside = outcomes.filter((o) => o.question.expected.length === 0);
  const quotable = inDomain.filter((o) => o.question.answers?.length && o.citations);
  const crossLingual = inDomain.filter((o) => o.question.crossLingual);
  let cited = 0;
  let correct = 0;
  let hits = 0;
  for (const outcome of inDomain) {
    const good = outcome.citedDocuments.filter((d) => outcome.question.expected.includes(d)).length;
    cited += outcome.citedDocuments.length;
    correct += good;
    if (good > 0) hits += 1;
  }
  const quoted = quotable.filter((o) =>
    o.citations!.some(
      (c) => o.question.expected.includes(c.document) && o.question.answers!.some((a) => quotes(c.quote, a)),
    ),
  ).length;
  let duplicates = 0;
  for (const outcome of outcomes) {
    const places = (outcome.citations ?? []).map((c) => `${c.document}\u0000${c.place}`);
    duplicates += places.length - new Set(places).size;
  }
  const share = (n: number, of: number) => (of === 0 ? Number.NaN : n / of);
  const latencies = outcomes.map((o) => o.latencyMs);
  const inDomainRefused = inDomain.filter((o) => o.refused).length;
  const outOfDomainRefused = outside.filter((o) => o.refused).length;
  return {
    inDomain: inDomain.length,
    outOfDomain: outside.length,
    citationPrecision: share(correct, cited),
    hitRate: share(hits, inDomain.length),
    inDomainRefusalRate: share(inDomainRefused, inDomain.length),
    outOfDomainRefusalRate: share(outOfDomainRefused, outside.length),
    answerQuotedRate: share(quoted, quotable.length),
    quotable: quotable.length,
    quoted,
    inDomainRefused,
    outOfDomainRefused,
    crossLingualRefusalRate: share(crossLingual.filter((o) => o.refused).length, crossLingual.length),
    duplicateCitations: duplicates,
    unsupportedSentences: outcomes.reduce((n, o) => n + o.unsupportedSentences, 0),
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
  };
}
