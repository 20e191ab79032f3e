import { describe, expect, it } from 'vitest';
import type { AskStreamResult } from '@trove/api-client/browser';
import { verificationSummary } from './answer-labels';

function result(
  verification: Partial<AskStreamResult['verification']>,
  extra: Partial<AskStreamResult> = {},
): AskStreamResult {
  return {
    answerId: 'ans_1',
    answer: 'a [1]',
    mode: 'LLM',
    insufficientContext: false,
    language: 'en',
    citations: [],
    verification: {
      validMarkers: [1],
      invalidMarkers: [],
      missingMarkers: false,
      retried: false,
      checkedSentences: 2,
      unsupportedSentences: [],
      ...verification,
    },
    timings: { totalMs: 1 },
    ...extra,
  };
}

describe('verificationSummary', () => {
  it('says plainly that every cited sentence is supported', () => {
    expect(verificationSummary(result({}))).toEqual({
      ok: true,
      lines: ['All 2 cited sentences are supported by the passages they cite.'],
    });
  });

  it('names unsupported sentences, removed markers and a retry', () => {
    const summary = verificationSummary(
      result({
        invalidMarkers: [7],
        retried: true,
        unsupportedSentences: [
          { sentence: 'b [1]', markers: [1], lexicalOverlap: 0.1, semanticSimilarity: 0.5, supported: false },
        ],
      }),
    );
    expect(summary.ok).toBe(false);
    expect(summary.lines).toEqual([
      '1 of 2 cited sentences are not supported by what they cite (flagged below).',
      'Citations naming no passage were removed: [7].',
      'The model was asked again, more strictly, after its first citations were wrong.',
    ]);
  });

  it('says when nothing is cited, and has nothing to say of an insufficient-context answer', () => {
    expect(verificationSummary(result({ missingMarkers: true, checkedSentences: 0 }))).toEqual({
      ok: false,
      lines: ['The answer cites nothing.'],
    });
    const refusal = result({}, { mode: 'INSUFFICIENT_CONTEXT', insufficientContext: true });
    expect(verificationSummary(refusal)).toEqual({ ok: true, lines: [] });
  });
});
