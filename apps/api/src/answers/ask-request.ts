import type { AskRequest, RequestedAnswerMode } from '@trove/answering';
import type { SearchScopeReader } from '@trove/catalog';
import { AskMode, askRequestSchema, SearchMode, TroveError, TroveErrorCode } from '@trove/domain';
import type { SearchFiltersInput } from '../search/search.model';
import { resolveSearchFilters } from '../search/search-filters';
import { assertWellFormedQuery } from '../search/query-text';
import { fusionSettings } from '../search/search.service';
import type { AskInput } from './ask.model';
import type { ThreadChoice } from './threads.service';

/** The GraphQL input (or the stream's body) in the answering lib's terms. */
export function askRequest(
  input: Omit<AskInput, 'mode' | 'threadId' | 'newThread'> & { mode?: AskMode },
): AskRequest {
  assertWellFormedQuery(input.question, 'the question');
  return {
    projectId: input.projectId,
    question: input.question,
    topK: input.topK ?? undefined,
    threshold: input.threshold ?? undefined,
    mode: (input.mode ?? AskMode.AUTO) as RequestedAnswerMode,
    search: input.search && {
      mode: input.search.mode ?? SearchMode.HYBRID,
      fusion: input.search.fusion ? fusionSettings(input.search.fusion) : undefined,
    },
  };
}

/** Checks the stream's JSON body; BAD_REQUEST lists what is wrong. */
export function parseStreamBody(
  projectId: string,
  body: unknown,
): { request: AskRequest; filters?: SearchFiltersInput; thread: ThreadChoice } {
  const parsed = askRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `invalid ask request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`,
    );
  }
  const { search, threadId, newThread, ...rest } = parsed.data;
  const request = askRequest({
    ...rest,
    projectId,
    search: search && { mode: search.mode ?? SearchMode.HYBRID, fusion: search.fusion },
  });
  return { request, filters: search?.filters, thread: { threadId, newThread } };
}

/**
 * The request with its search filters in the search lib's terms: source and date filters become
 * document ids through the catalog, as for `search` (SOURCE_NOT_FOUND for a foreign source).
 */
export async function withSearchFilters(
  request: AskRequest,
  filters: SearchFiltersInput | null | undefined,
  scopes: SearchScopeReader,
  maxDocuments: number,
): Promise<AskRequest> {
  const resolved = await resolveSearchFilters(scopes, request.projectId, filters, maxDocuments);
  if (!resolved) return request;
  return { ...request, search: { mode: SearchMode.HYBRID, ...request.search, filters: resolved } };
}
