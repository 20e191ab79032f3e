import type { TokenCounter } from '@trove/chunking';
import { passageBlock, type PromptPassage } from './prompt-template';

/** A candidate passage for the context, best first. */
export type ContextCandidate = Omit<PromptPassage, 'marker'>;

export interface BudgetedPassage<T extends ContextCandidate> {
  marker: number;
  candidate: T;
  /** The text that fits (the candidate's, or the head of it). */
  text: string;
  truncated: boolean;
  tokens: number;
}

/** Passages shorter than this many tokens after cutting are not worth a marker. */
const MIN_CUT_TOKENS = 32;

/**
 * Numbers candidates 1, 2, … in rank order while their prompt blocks (marker, title, heading
 * path and text) fit in `budget` tokens. A candidate that does not fit is skipped (a later,
 * shorter one may still fit); the first one, when it alone is too long, is cut to fit, so the
 * context is never empty while a candidate exists.
 */
export function budgetContext<T extends ContextCandidate>(
  candidates: T[],
  budget: number,
  counter: TokenCounter,
): { passages: BudgetedPassage<T>[]; tokens: number } {
  const passages: BudgetedPassage<T>[] = [];
  let used = 0;
  for (const candidate of candidates) {
    const marker = passages.length + 1;
    const block = { ...candidate, marker };
    const tokens = counter.count(passageBlock(block)) + 2; // the blank line between blocks
    if (used + tokens <= budget) {
      passages.push({ marker, candidate, text: candidate.text, truncated: false, tokens });
      used += tokens;
      continue;
    }
    if (passages.length > 0) continue;
    const cut = cutToFit(block, budget - used, counter);
    if (cut) {
      passages.push({ marker, candidate, text: cut.text, truncated: true, tokens: cut.tokens });
      used += cut.tokens;
    }
  }
  return { passages, tokens: used };
}

/** The longest head of the passage's text (cut at a word boundary) whose block fits in `room`. */
function cutToFit(
  block: PromptPassage,
  room: number,
  counter: TokenCounter,
): { text: string; tokens: number } | undefined {
  const cost = (text: string) => counter.count(passageBlock({ ...block, text })) + 2;
  let low = 0;
  let high = block.text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cost(`${block.text.slice(0, mid)} …`) <= room) low = mid;
    else high = mid - 1;
  }
  let text = block.text.slice(0, low);
  const space = text.search(/\s\S*$/);
  if (space > text.length / 2) text = text.slice(0, space);
  text = `${text.trimEnd()} …`;
  const tokens = cost(text);
  if (tokens > room || tokens < MIN_CUT_TOKENS) return undefined;
  return { text, tokens };
}
