import { type LlmProvider, TroveError, TroveErrorCode } from '@trove/domain';
import { type PriorTurn, rewriteFollowUp } from './follow-up';
import { stripMarkers } from './markers';
import { rewriteMessages } from './prompt-template';

/** Bounds of a rewrite by the model: it runs before retrieval, so it must be short and quick. */
export const REWRITE_LIMITS = {
  /** Earlier turns shown to the model. */
  turns: 3,
  /** Characters of each earlier answer shown. */
  answerChars: 400,
  /** Tokens the model may write. */
  maxTokens: 120,
  /** A longer reply is not a question: the rules decide instead. */
  maxChars: 500,
};

export interface RewriteOptions {
  /** The configured model; without one (or when it fails or is slow) the rules of `rewriteFollowUp` decide. */
  llm?: LlmProvider;
  /** The model's time: past it the rules decide instead (the answer settings' rewriteTimeoutMs). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The model's time when the caller gives none. */
export const DEFAULT_REWRITE_TIMEOUT_MS = 8_000;

/**
 * The question a follow-up stands for, for retrieval: written by the model when one is configured,
 * else (or when it fails, is slow, or replies with something that is not a question) by the rules
 * of `rewriteFollowUp`. Undefined when the question already stands alone or there is no earlier
 * turn. Only the caller going away (its `signal`) ends it with an error.
 */
export async function standaloneQuestion(
  question: string,
  turns: readonly PriorTurn[],
  options: RewriteOptions = {},
): Promise<string | undefined> {
  if (turns.length === 0) return undefined;
  if (options.llm) {
    const rewritten = await modelRewrite(
      question,
      turns,
      options.llm,
      options.timeoutMs ?? DEFAULT_REWRITE_TIMEOUT_MS,
      options.signal,
    );
    if (rewritten !== null) return sameQuestion(rewritten, question) ? undefined : rewritten;
  }
  return rewriteFollowUp(question, turns);
}

/** The model's rewrite, or null when the rules should decide. */
async function modelRewrite(
  question: string,
  turns: readonly PriorTurn[],
  llm: LlmProvider,
  timeoutMs: number,
  caller: AbortSignal | undefined,
): Promise<string | null> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
  const shown = turns.slice(-REWRITE_LIMITS.turns).map((turn) => ({
    question: turn.standaloneQuestion ?? turn.question,
    answer: turn.answer && stripMarkers(turn.answer).slice(0, REWRITE_LIMITS.answerChars),
  }));
  try {
    const { text } = await llm.complete({
      messages: rewriteMessages(question, shown),
      maxTokens: REWRITE_LIMITS.maxTokens,
      temperature: 0,
      signal,
    });
    return cleanReply(text);
  } catch (error) {
    if (caller?.aborted) {
      throw new TroveError(TroveErrorCode.Cancelled, 'the answer was cancelled by its caller', {
        cause: error,
      });
    }
    return null;
  }
}

/** The reply's question: its first line, without a label or quotes; null when it is not one. */
function cleanReply(text: string): string | null {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!line) return null;
  const cleaned = line
    .replace(/^(?:standalone|rewritten|last)?\s*question\s*:\s*/i, '')
    // A small model may carry on the prompt's "Q1:"/"A1:" turns instead of replying.
    .replace(/^[QA]\d+\s*:\s*/, '')
    .replace(/^["'«“„「]+|["'»”“」]+$/gu, '')
    .trim();
  return cleaned && cleaned.length <= REWRITE_LIMITS.maxChars ? cleaned : null;
}

function sameQuestion(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\s\p{P}]+/gu, ' ')
      .trim();
  return norm(a) === norm(b);
}
