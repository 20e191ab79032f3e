import { loneSurrogateIn, TroveError, TroveErrorCode } from '@trove/domain';

/**
 * Refuses text a client sends to be embedded (a search query, a question) that is not valid
 * Unicode: a lone surrogate has no UTF-8 form, and the embedding server would fail on it.
 */
export function assertWellFormedQuery(text: string, what: string): void {
  const lone = loneSurrogateIn(text);
  if (lone) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${what} is not valid Unicode: a lone surrogate (${lone.codePoint}) at character ${lone.position}; send well-formed UTF-16/UTF-8 text`,
    );
  }
}
