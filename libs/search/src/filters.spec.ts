import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { chunkFilterClauses } from './chunk-queries';
import { checkChunkFilters, matchesNothing } from './filters';

describe('chunkFilterClauses', () => {
  it('is the project alone without filters', () => {
    expect(chunkFilterClauses('p1')).toEqual([{ term: { projectId: 'p1' } }]);
  });

  it('adds one clause per filter given, hasCode false included', () => {
    expect(
      chunkFilterClauses('p1', { documentIds: ['d1', 'd2'], languages: ['ru'], hasCode: false }),
    ).toEqual([
      { term: { projectId: 'p1' } },
      { terms: { documentId: ['d1', 'd2'] } },
      { terms: { language: ['ru'] } },
      { term: { hasCode: false } },
    ]);
  });
});

describe('matchesNothing', () => {
  it('is true for an empty id or language list (a filter resolved to nothing), false for no filter', () => {
    expect(matchesNothing({ documentIds: [] })).toBe(true);
    expect(matchesNothing({ languages: [] })).toBe(true);
    expect(matchesNothing({})).toBe(false);
    expect(matchesNothing({ documentIds: ['d'] })).toBe(false);
  });
});

describe('checkChunkFilters', () => {
  it('refuses more document ids than the limit, naming the setting', () => {
    expect(() => checkChunkFilters({ documentIds: ['a', 'b', 'c'] }, { maxDocumentIds: 2 })).toThrow(
      expect.objectContaining({
        code: TroveErrorCode.BadRequest,
        message: expect.stringContaining('3 documents; the limit is 2 (TROVE_SEARCH_MAX_FILTER_DOCUMENTS)'),
      }),
    );
    expect(() => checkChunkFilters({ documentIds: ['a', 'b'] }, { maxDocumentIds: 2 })).not.toThrow();
  });

  it('refuses empty strings and too many languages', () => {
    expect(() => checkChunkFilters({ languages: [' '] }, { maxDocumentIds: 2 })).toThrow(/empty strings/);
    expect(() => checkChunkFilters({ languages: Array(21).fill('en') }, { maxDocumentIds: 2 })).toThrow(
      /more than 20 languages/,
    );
  });
});
