/** Scores of an answer-quality run: citation precision, refusals, latency. */
import type { AnswerQuestion } from './answer-questions';
import { percentile } from './metrics';

/** What one answer gave, in the terms the scores need. */
export interface AnswerOutcome {
  question: AnswerQuestion;
  /** The answer said the knowledge base does not hold enough. */
  refused: boolean;
  /** File names of the cited documents, one per citation. */
  citedDocuments: string[];
  unsupportedSentences: number;
  latencyMs: number;
}

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
  /** Cited sentences flagged unsupported, over every answer. */
  unsupportedSentences: number;
  p50Ms: number;
  p95Ms: number;
}

export function scoreAnswers(outcomes: AnswerOutcome[]): AnswerScores {
  const inDomain = outcomes.filter((o) => o.question.expected.length > 0);
  const outside = outcomes.filter((o) => o.question.expected.length === 0);
  let cited = 0;
  let correct = 0;
  let hits = 0;
  for (const outcome of inDomain) {
    const good = outcome.citedDocuments.filter((d) => outcome.question.expected.includes(d)).length;
    cited += outcome.citedDocuments.length;
    correct += good;
    if (good > 0) hits += 1;
  }
  const share = (n: number, of: number) => (of === 0 ? Number.NaN : n / of);
  const latencies = outcomes.map((o) => o.latencyMs);
  return {
    inDomain: inDomain.length,
    outOfDomain: outside.length,
    citationPrecision: share(correct, cited),
    hitRate: share(hits, inDomain.length),
    inDomainRefusalRate: share(inDomain.filter((o) => o.refused).length, inDomain.length),
    outOfDomainRefusalRate: share(outside.filter((o) => o.refused).length, outside.length),
    unsupportedSentences: outcomes.reduce((n, o) => n + o.unsupportedSentences, 0),
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
  };
}
