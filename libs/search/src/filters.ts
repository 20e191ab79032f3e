import { TroveError, TroveErrorCode } from '@trove/domain';

/**
 * Filters on what a chunk stores itself. Source and date filters live in the catalog (chunks
 * carry neither), so callers resolve them to `documentIds` first.
 */
export interface ChunkFilters {
  /** Only chunks of these documents. An empty list matches nothing (a filter that resolved to no document). */
  documentIds?: string[];
  /** Only chunks whose detected language is one of these (`en`, `ru`, `cjk`, `und`). */
  languages?: string[];
  /** Only chunks with (true) or without (false) a code block. */
  hasCode?: boolean;
}

/** Bounds on filter lists: a terms query grows with its list, and Elasticsearch caps it at 65,536. */
export interface FilterLimits {
  /** Most document ids one search may filter on (TROVE_SEARCH_MAX_FILTER_DOCUMENTS). */
  maxDocumentIds: number;
}

const MAX_LANGUAGES = 20;

/** Refuses filter lists that are too long or hold empty values, before any work is done. */
export function checkChunkFilters(filters: ChunkFilters, limits: FilterLimits): void {
  const { documentIds, languages } = filters;
  if (documentIds && documentIds.length > limits.maxDocumentIds) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `the filter names ${documentIds.length} documents; the limit is ${limits.maxDocumentIds} ` +
        `(TROVE_SEARCH_MAX_FILTER_DOCUMENTS): narrow it, e.g. by source or date`,
    );
  }
  if (languages && languages.length > MAX_LANGUAGES) {
    throw new TroveError(TroveErrorCode.BadRequest, `the filter names more than ${MAX_LANGUAGES} languages`);
  }
  if ([...(documentIds ?? []), ...(languages ?? [])].some((value) => !value.trim())) {
    throw new TroveError(TroveErrorCode.BadRequest, 'filter values must not be empty strings');
  }
}

/** True when the filters can match nothing, so the search can answer without asking anyone. */
export function matchesNothing(filters: ChunkFilters): boolean {
  return filters.documentIds?.length === 0 || filters.languages?.length === 0;
}
