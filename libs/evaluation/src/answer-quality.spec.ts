import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answerBreakdown,
  answerKind,
  answerLanguage,
  type AnswerOutcome,
  answerOutcome,
  answerSplit,
  quotes,
  scoreAnswers,
} from './answer-quality';
import { ANSWER_CORPUS, ANSWER_QUESTIONS, type AnswerQuestion } from './answer-questions';

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

describe('quote and duplicate scores', () => {
  const question = (answers?: string[], crossLingual = false) => ({
    question: 'q',
    expected: ['a.md'],
    answers,
    crossLingual,
  });
  const cited = (document: string, place: string, quote: string) => ({ document, place, quote });
  const quoted = (q: AnswerOutcome['question'], citations: ReturnType<typeof cited>[], refused = false) => ({
    question: q,
    refused,
    citedDocuments: citations.map((c) => c.document),
    citations,
    unsupportedSentences: 0,
    latencyMs: 1,
  });

  it('counts an answer quoted when a citation of an expected document holds an answer string', () => {
    const scores = scoreAnswers([
      quoted(question(['MAX_SEND_RETRIES 7']), [cited('a.md', '#build', '#define  max_send_retries 7')]),
      // The string in a document that is not expected does not count.
      quoted(question(['8884']), [cited('b.md', '#env', '| staging | 8884 |')]),
      quoted(question(['six hours'], true), [], true),
      quoted({ question: 'ood', expected: [] }, [], true),
    ]);
    expect(scores).toMatchObject({
      answerQuotedRate: 1 / 3,
      quotable: 3,
      crossLingualRefusalRate: 1,
      inDomainRefusalRate: 1 / 3,
      outOfDomainRefusalRate: 1,
      duplicateCitations: 0,
    });
  });

  it('counts a citation of a document and place already cited as a duplicate', () => {
    const scores = scoreAnswers([
      quoted(question(), [cited('a.md', 'u#1', 'x'), cited('a.md', 'u#1', 'y'), cited('a.md', 'u#2', 'z')]),
    ]);
    expect(scores.duplicateCitations).toBe(1);
    expect(scores.answerQuotedRate).toBeNaN();
  });

  it('builds an outcome from an answer result, its places being the citation links', () => {
    const outcome = answerOutcome(
      question(['7']),
      {
        insufficientContext: false,
        citations: [
          { documentId: 'd1', chunkId: 'c1', citationUrl: 'https://x/a#b', headingPath: ['A'], quote: 'q7' },
          { documentId: 'd1', chunkId: 'c2', headingPath: ['A', 'B'], quote: 'q' },
        ],
        verification: { unsupportedSentences: [] },
      },
      (id) => `${id}.md`,
      5,
    );
    expect(outcome.citations).toEqual([
      { document: 'd1.md', place: 'https://x/a#b', quote: 'q7' },
      { document: 'd1.md', place: 'A › B', quote: 'q' },
    ]);
    expect(outcome.citedDocuments).toEqual(['d1.md', 'd1.md']);
  });

  it('matches quotes whatever their case and spacing', () => {
    expect(quotes('| Ладога |  4 | 6 |', 'ладога | 4')).toBe(true);
    expect(quotes('| Ладога | 5 |', 'Ладога | 4')).toBe(false);
  });
});

describe('the answer-quality set', () => {
  it('splits the questions about evenly and stably into train and test', () => {
    const train = ANSWER_QUESTIONS.filter((q) => answerSplit(q) === 'train').length;
    expect(train / ANSWER_QUESTIONS.length).toBeGreaterThan(0.35);
    expect(train / ANSWER_QUESTIONS.length).toBeLessThan(0.65);
    expect(answerSplit({ question: 'Как откатить релиз?', expected: [] })).toBe('test');
  });

  it('holds each answer string in its expected fixture page, with code lines, table rows, list items and toggle children in both languages', () => {
    const root = join(__dirname, '..', '..', '..');
    const text = new Map(
      ANSWER_CORPUS.filter((f) => f.source.startsWith('repo:')).map((f) => [
        f.fileName,
        readFileSync(join(root, f.source.slice('repo:'.length)), 'utf8'),
      ]),
    );
    const quotable = ANSWER_QUESTIONS.filter((q) => q.answers);
    for (const q of quotable) {
      expect(
        q.answers!.some((a) => q.expected.some((d) => quotes(text.get(d) ?? '', a))),
        q.question,
      ).toBe(true);
    }
    for (const unit of ['code-line', 'table-row', 'list-item', 'toggle-child']) {
      expect(quotable.filter((q) => q.unit === unit && !q.crossLingual).length).toBeGreaterThanOrEqual(4);
      expect(quotable.filter((q) => q.unit === unit && q.crossLingual).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('holds 40+ questions, out-of-domain ones among them, expecting only documents of its corpus', () => {
    const names = new Set(ANSWER_CORPUS.map((f) => f.fileName));
    expect(ANSWER_QUESTIONS.filter((q) => q.expected.length > 0).length).toBeGreaterThanOrEqual(40);
    expect(ANSWER_QUESTIONS.filter((q) => q.expected.length === 0).length).toBeGreaterThanOrEqual(10);
    for (const q of ANSWER_QUESTIONS) for (const name of q.expected) expect(names).toContain(name);
    expect(new Set(ANSWER_QUESTIONS.map((q) => q.question)).size).toBe(ANSWER_QUESTIONS.length);
  });
});

describe('the breakdown by kind and language', () => {
  const asked = (
    question: string,
    expected: string[],
    extra: Partial<AnswerQuestion> = {},
  ): AnswerOutcome => ({
    question: { question, expected, ...extra },
    refused: expected.length === 0,
    citedDocuments: expected,
    citations: expected.map((document) => ({ document, place: '#', quote: 'x' })),
    unsupportedSentences: 0,
    latencyMs: 1,
  });

  it('scores the whole set and each split, by kind of answer, language and across languages', () => {
    const outcomes = [
      asked('What is MAX_SEND_RETRIES?', ['a.md'], { answers: ['x'], unit: 'code-line' }),
      asked('Почему датчики буферизуют?', ['a.md'], {
        answers: ['y'],
        unit: 'toggle-child',
        crossLingual: true,
      }),
      asked('搜索结果的引用链接指向哪里？', ['b.md']),
      asked('Who painted the Mona Lisa?', []),
    ];
    const rows = answerBreakdown(outcomes);
    const all = (group: string) => rows.find((r) => r.split === 'all' && r.group === group)?.scores;
    expect(all('all')).toMatchObject({ inDomain: 3, outOfDomain: 1, quotable: 2, quoted: 1 });
    expect(all('code-line')).toMatchObject({ inDomain: 1, quoted: 1, answerQuotedRate: 1 });
    expect(all('toggle-child')).toMatchObject({ quoted: 0, answerQuotedRate: 0 });
    expect(all('unlabelled')).toMatchObject({ inDomain: 1, quotable: 0 });
    expect(all('out-of-domain')).toMatchObject({ outOfDomain: 1, outOfDomainRefused: 1 });
    expect([all('en')?.inDomain, all('ru')?.inDomain, all('zh')?.inDomain]).toEqual([1, 1, 1]);
    expect(all('cross-lingual')).toMatchObject({ inDomain: 1 });
    // Each question is in exactly one split.
    const inSplits = rows.filter((r) => r.split !== 'all' && r.group === 'all');
    expect(inSplits.reduce((n, r) => n + r.scores.inDomain + r.scores.outOfDomain, 0)).toBe(4);
    expect(answerLanguage({ question: 'Какой порт у MQTT-брокера в staging?', expected: [] })).toBe('ru');
    expect(answerKind({ question: 'q', expected: ['a.md'], answers: ['x'] })).toBe('sentence');
  });
});
