import { describe, expect, it } from 'vitest';
import { type AnswerOutcome, scoreAnswers } from './answer-quality';
import { ANSWER_CORPUS, ANSWER_QUESTIONS } from './answer-questions';

const outcome = (
  expected: string[],
  citedDocuments: string[],
  refused = false,
  latencyMs = 10,
): AnswerOutcome => ({
  question: { question: 'q', expected },
  refused,
  citedDocuments,
  unsupportedSentences: 0,
  latencyMs,
});

describe('scoreAnswers', () => {
  it('counts correct citations over all citations of in-domain answers, and refusals per kind', () => {
    const scores = scoreAnswers([
      outcome(['a.md'], ['a.md', 'b.md'], false, 10),
      outcome(['c.md', 'd.md'], ['d.md'], false, 20),
      outcome(['a.md'], [], true, 30),
      outcome([], [], true, 40),
      outcome([], ['b.md'], false, 50),
    ]);
    expect(scores).toMatchObject({
      inDomain: 3,
      outOfDomain: 2,
      citationPrecision: 2 / 3,
      hitRate: 2 / 3,
      inDomainRefusalRate: 1 / 3,
      outOfDomainRefusalRate: 1 / 2,
      p50Ms: 30,
      p95Ms: 50,
    });
  });
});

describe('the answer-quality set', () => {
  it('holds 40+ questions, out-of-domain ones among them, expecting only documents of its corpus', () => {
    const names = new Set(ANSWER_CORPUS.map((f) => f.fileName));
    expect(ANSWER_QUESTIONS.filter((q) => q.expected.length > 0).length).toBeGreaterThanOrEqual(40);
    expect(ANSWER_QUESTIONS.filter((q) => q.expected.length === 0).length).toBeGreaterThanOrEqual(10);
    for (const q of ANSWER_QUESTIONS) for (const name of q.expected) expect(names).toContain(name);
    expect(new Set(ANSWER_QUESTIONS.map((q) => q.question)).size).toBe(ANSWER_QUESTIONS.length);
  });
});
