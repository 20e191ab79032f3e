import type { SearchScopeReader } from '@trove/catalog';
import { TroveError, TroveErrorCode } from '@trove/domain';
import type { ChunkFilters } from '@trove/search';
import type { SearchFiltersInput } from './search.model';

/** A project has few sources and few document types; a longer list is a mistake, not a query. */
const MAX_SOURCE_IDS = 100;
const MAX_MEDIA_TYPES = 50;

/**
 * The request's filters in the search lib's terms. Chunks store neither their source nor their
 * document's media type or dates, so those filters become the ids of the matching documents (from the
 * catalog, so chunks indexed before these filters existed filter correctly). No matching document
 * is `documentIds: []`: no hits, not "no filter".
 */
export async function resolveSearchFilters(
  scopes: SearchScopeReader,
  projectId: string,
  input: SearchFiltersInput | null | undefined,
  maxDocuments: number,
): Promise<ChunkFilters | undefined> {
  if (!input) return undefined;
  const sourceIds = input.sourceIds ?? undefined;
  const mediaTypes = input.mediaTypes ?? undefined;
  const updatedFrom = isoDate('updatedFrom', input.updatedFrom);
  const updatedTo = isoDate('updatedTo', input.updatedTo);
  if (sourceIds && sourceIds.length > MAX_SOURCE_IDS) {
    throw bad(`the filter names ${sourceIds.length} sources; the limit is ${MAX_SOURCE_IDS}`);
  }
  if (mediaTypes && mediaTypes.length > MAX_MEDIA_TYPES) {
    throw bad(`the filter names ${mediaTypes.length} media types; the limit is ${MAX_MEDIA_TYPES}`);
  }
  if (updatedFrom && updatedTo && updatedFrom >= updatedTo) {
    throw bad('filters.updatedFrom must be before filters.updatedTo');
  }
  let documentIds = input.documentIds ?? undefined;
  if (documentIds && documentIds.length > maxDocuments) {
    throw bad(
      `the filter names ${documentIds.length} documents; the limit is ${maxDocuments} (TROVE_SEARCH_MAX_FILTER_DOCUMENTS)`,
    );
  }
  if (sourceIds || mediaTypes || updatedFrom || updatedTo) {
    documentIds = await scopes.searchScope(
      projectId,
      { sourceIds, documentIds, mediaTypes, updatedFrom, updatedTo },
      maxDocuments,
    );
    if (documentIds.length > maxDocuments) {
      throw bad(
        `the filters match more than ${maxDocuments} documents (TROVE_SEARCH_MAX_FILTER_DOCUMENTS): narrow them`,
      );
    }
  }
  return {
    documentIds,
    languages: input.languages ?? undefined,
    hasCode: input.hasCode ?? undefined,
  };
}

/** An ISO 8601 instant, normalised; anything else is BAD_REQUEST. */
function isoDate(name: string, value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time))
    throw bad(`filters.${name} must be an ISO 8601 date or date-time, e.g. 2026-01-31T00:00:00Z`);
  return new Date(time).toISOString();
}

function bad(message: string): TroveError {
  return new TroveError(TroveErrorCode.BadRequest, message);
}
