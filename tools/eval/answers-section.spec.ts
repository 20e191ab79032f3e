import { describe, expect, it } from 'vitest';
import type { AnswerQuestion } from '@trove/evaluation';
import { ANSWERS_HEADING, type AnswerRun, answersSection, scoredOutcomes } from './answers-section';

const questions: AnswerQuestion[] = [
  {
    question: 'What is MAX_SEND_RETRIES?',
    expected: ['fw.md'],
    answers: ['MAX_SEND_RETRIES 7'],
    unit: 'code-line',
  },
  { question: 'Какой порт у VPN?', expected: ['office.md'], answers: ['port = 1194'], unit: 'code-line' },
  { question: 'Who painted the Mona Lisa?', expected: [] },
];

/** A run answering every question: quoting `quoted` ones, refusing the out-of-domain one. */
function run(label: string, quoted: string[]): AnswerRun {
  return {
    label,
    state: `${label} state`,
    outcomes: questions.map((q) => ({
      question: q.question,
      mode: q.expected.length ? 'EXTRACTIVE' : 'INSUFFICIENT_CONTEXT',
      refused: q.expected.length === 0,
      citations: q.expected.map((document) => ({
        document,
        place: `${document}#a`,
        quote: quoted.includes(q.question) ? q.answers![0] : 'something else',
      })),
      unsupportedSentences: 0,
      latencyMs: 10,
    })),
  };
}

describe('the answer-quality section', () => {
  it('shows each state per split with counts beside the rates, and how each state was obtained', () => {
    const text = answersSection([run('before', []), run('after', ['What is MAX_SEND_RETRIES?'])], questions, {
      corpus: ['fw.md', 'office.md'],
      settings: 'the defaults',
    });
    expect(text.startsWith(`${ANSWERS_HEADING}\n`)).toBe(true);
    expect(text).toContain('- **before**: before state');
    expect(text).toContain('- **after**: after state');
    expect(text).toContain(
      '| all | before | 0.000 (0/2) | 1.000 | 1.000 | 0.000 (0/2) | 1.000 (1/1) | 0 | 10 | 10 |',
    );
    expect(text).toContain(
      '| all | after | 0.500 (1/2) | 1.000 | 1.000 | 0.000 (0/2) | 1.000 (1/1) | 0 | 10 | 10 |',
    );
    // Both splits appear with their kinds and languages.
    expect(text).toMatch(/^\| (train|test) \| code-line \| after \| /m);
    expect(text).toMatch(/^\| (train|test) \| ru \| before \| /m);
  });

  it('refuses a run of another set, whose rows would not compare', () => {
    const other = run('before', []);
    other.outcomes = other.outcomes.slice(1);
    expect(() => scoredOutcomes(other, questions)).toThrow(/1 questions of this set missing/);
  });
});
