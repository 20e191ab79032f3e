import type { AskStreamResult } from '@trove/api-client/browser';

type AnswerMode = AskStreamResult['mode'];

/** How each answer mode is named and explained to the person who asked. */
export const ANSWER_MODES: Record<AnswerMode, { label: string; color: string; explanation: string }> = {
  LLM: {
    label: 'LLM',
    color: 'indigo',
    explanation: 'Written by a language model from the passages; its citations were checked.',
  },
  EXTRACTIVE: {
    label: 'Quotes',
    color: 'teal',
    explanation: 'No model wrote this: sentences quoted word for word from the most relevant passages.',
  },
  TOP_1: {
    label: 'Top passage, quoted',
    color: 'teal',
    explanation: 'No model wrote this: the most relevant passage, as it is.',
  },
  INSUFFICIENT_CONTEXT: {
    label: 'Insufficient context',
    color: 'orange',
    explanation: 'Nothing in this project is relevant enough to answer: no answer was made up.',
  },
};

/** What the verification found, in plain sentences, and whether it found nothing wrong. */
export function verificationSummary(result: AskStreamResult): { ok: boolean; lines: string[] } {
  if (result.insufficientContext) return { ok: true, lines: [] };
  const { checkedSentences, unsupportedSentences, invalidMarkers, missingMarkers, retried } =
    result.verification;
  const lines: string[] = [];
  if (missingMarkers) lines.push('The answer cites nothing.');
  else if (checkedSentences === 0) lines.push('The passage is quoted as it is: nothing needed checking.');
  else if (unsupportedSentences.length === 0)
    lines.push(
      checkedSentences === 1
        ? 'The cited sentence is supported by the passage it cites.'
        : `All ${checkedSentences} cited sentences are supported by the passages they cite.`,
    );
  else
    lines.push(
      `${unsupportedSentences.length} of ${checkedSentences} cited sentences are not supported by what they cite (flagged below).`,
    );
  if (invalidMarkers.length > 0)
    lines.push(`Citations naming no passage were removed: ${invalidMarkers.map((n) => `[${n}]`).join(' ')}.`);
  if (retried) lines.push('The model was asked again, more strictly, after its first citations were wrong.');
  return { ok: !missingMarkers && unsupportedSentences.length === 0 && invalidMarkers.length === 0, lines };
}
