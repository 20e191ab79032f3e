/**
 * The answer prompt, versioned: change the text → change the id, so an answer (and an evaluation
 * run) can say which prompt produced it. Everything the model is told lives in this file.
 */
import type { LlmMessage } from '@trove/domain';
import type { AnswerLanguage } from './text';

export const ANSWER_PROMPT_ID = 'answer-v1';

/** What the model writes when the passages do not answer the question; recognised verbatim. */
export const REFUSAL_TOKEN = 'INSUFFICIENT_CONTEXT';

const LANGUAGE_NAMES: Record<AnswerLanguage, string> = {
  en: 'English',
  ru: 'Russian',
  zh: 'Chinese (简体中文)',
};

/** A passage as the model sees it: its number, where it comes from, its text. */
export interface PromptPassage {
  marker: number;
  title: string;
  headingPath: string[];
  text: string;
}

function system(language: AnswerLanguage): string {
  return [
    'You answer questions about a knowledge base using only the numbered passages you are given.',
    'Rules:',
    '- Use only facts stated in the passages. Do not add outside knowledge.',
    '- After every sentence that states a fact, cite the passage(s) it comes from with its number in square brackets, before the final punctuation, e.g. "Releases are rolled back with deployctl [2]." Cite several as [1][3].',
    '- Only cite numbers of passages you were given.',
    `- If the passages do not contain the answer, reply with exactly ${REFUSAL_TOKEN} and nothing else.`,
    `- Write the answer in ${LANGUAGE_NAMES[language]}, the language of the question. Be concise.`,
  ].join('\n');
}

/** A passage as the model reads it: `[n] Title › Heading`, then its text. */
export function passageBlock(passage: PromptPassage): string {
  const place = [passage.title, ...passage.headingPath].filter(Boolean).join(' › ');
  return `[${passage.marker}] ${place}\n${passage.text.trim()}`;
}

function user(question: string, passages: PromptPassage[]): string {
  return `Passages:\n\n${passages.map(passageBlock).join('\n\n')}\n\nQuestion: ${question}`;
}

/** The messages of a first attempt. */
export function answerMessages(
  question: string,
  passages: PromptPassage[],
  language: AnswerLanguage,
): LlmMessage[] {
  return [
    { role: 'system', content: system(language) },
    { role: 'user', content: user(question, passages) },
  ];
}

/**
 * The retry after an answer whose markers were missing or named no passage: the same passages,
 * the rejected answer, and what was wrong with it, with the valid numbers spelt out.
 */
export function stricterAnswerMessages(
  question: string,
  passages: PromptPassage[],
  language: AnswerLanguage,
  rejected: { answer: string; invalid: number[]; missing: boolean },
): LlmMessage[] {
  const valid = passages.map((p) => p.marker);
  const problem = rejected.missing
    ? 'It cited no passage.'
    : `It cited ${rejected.invalid.map((n) => `[${n}]`).join(', ')}, which ${rejected.invalid.length === 1 ? 'is' : 'are'} not among the passages.`;
  return [
    ...answerMessages(question, passages, language),
    { role: 'assistant', content: rejected.answer },
    {
      role: 'user',
      content: [
        `Your answer was rejected. ${problem}`,
        `Answer again. Every sentence must end with a citation, and the only valid citations are ${valid.map((n) => `[${n}]`).join(', ')}.`,
        `If the passages do not contain the answer, reply with exactly ${REFUSAL_TOKEN}.`,
      ].join('\n'),
    },
  ];
}

/** The follow-up rewrite prompt's version. */
export const REWRITE_PROMPT_ID = 'rewrite-v1';

/** An earlier turn as the rewrite prompt shows it. */
export interface PromptTurn {
  question: string;
  answer?: string;
}

/**
 * The messages that turn a follow-up into a standalone question: the thread's last turns (answers
 * shortened, without citation markers) and the follow-up. The model replies with the question alone.
 */
export function rewriteMessages(question: string, turns: PromptTurn[]): LlmMessage[] {
  const conversation = turns
    .map((turn, i) =>
      [`Q${i + 1}: ${turn.question.trim()}`, turn.answer ? `A${i + 1}: ${turn.answer.trim()}` : '']
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
  return [
    {
      role: 'system',
      content: [
        'You rewrite the last question of a conversation so that it can be understood without the conversation: a search engine will see it alone.',
        'Rules:',
        '- Replace pronouns and elliptical phrases ("and for X?", "what about it?") by what they refer to in the conversation.',
        '- Keep the language of the last question. Do not answer it. Do not add facts the conversation does not contain.',
        '- If the last question already stands alone, repeat it unchanged.',
        '- Reply with the rewritten question only, on one line.',
      ].join('\n'),
    },
    { role: 'user', content: `Conversation:\n${conversation}\n\nLast question: ${question.trim()}` },
  ];
}
