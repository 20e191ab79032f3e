import { describe, expect, it } from 'vitest';
import type { DocumentScope, SearchScopeReader } from '@trove/catalog';
import { TroveErrorCode } from '@trove/domain';
import { resolveSearchFilters } from './search-filters';

function catalog(ids: string[] = ['d1', 'd2']) {
  const scopes: DocumentScope[] = [];
  const reader: SearchScopeReader = {
    searchScope: (_projectId, scope) => {
      scopes.push(scope);
      return Promise.resolve(ids);
    },
  };
  return { reader, scopes };
}

describe('resolveSearchFilters', () => {
  it('is no filter without input, and passes chunk filters through without asking the catalog', async () => {
    const { reader, scopes } = catalog();
    expect(await resolveSearchFilters(reader, 'p', undefined, 10)).toBeUndefined();
    expect(
      await resolveSearchFilters(reader, 'p', { documentIds: ['x'], languages: ['ru'], hasCode: false }, 10),
    ).toEqual({ documentIds: ['x'], languages: ['ru'], hasCode: false });
    expect(scopes).toEqual([]);
  });

  it('resolves sources and dates (with any given ids) to document ids through the catalog', async () => {
    const { reader, scopes } = catalog(['d2']);
    const filters = await resolveSearchFilters(
      reader,
      'p',
      {
        sourceIds: ['s1'],
        documentIds: ['d1', 'd2'],
        updatedFrom: '2026-01-01',
        updatedTo: '2026-02-01T12:00:00+02:00',
      },
      10,
    );
    expect(filters).toEqual({ documentIds: ['d2'], languages: undefined, hasCode: undefined });
    expect(scopes).toEqual([
      {
        sourceIds: ['s1'],
        documentIds: ['d1', 'd2'],
        updatedFrom: '2026-01-01T00:00:00.000Z',
        updatedTo: '2026-02-01T10:00:00.000Z',
      },
    ]);
  });

  it('resolves media types to document ids through the catalog', async () => {
    const { reader, scopes } = catalog(['d1']);
    const filters = await resolveSearchFilters(reader, 'p', { mediaTypes: ['application/pdf'] }, 10);
    expect(filters?.documentIds).toEqual(['d1']);
    expect(scopes).toEqual([expect.objectContaining({ mediaTypes: ['application/pdf'] })]);
  });

  it('a resolution to no document is an empty list (no hits), not "no filter"', async () => {
    const { reader } = catalog([]);
    expect((await resolveSearchFilters(reader, 'p', { updatedFrom: '2030-01-01' }, 10))?.documentIds).toEqual(
      [],
    );
  });

  it.each([
    [{ updatedFrom: 'yesterday' }, 'filters.updatedFrom must be an ISO 8601 date'],
    [
      { updatedFrom: '2026-02-01', updatedTo: '2026-01-01' },
      'filters.updatedFrom must be before filters.updatedTo',
    ],
    [{ documentIds: ['a', 'b', 'c'] }, 'the filter names 3 documents; the limit is 2'],
    [{ sourceIds: Array(101).fill('s') }, 'the filter names 101 sources; the limit is 100'],
    [{ mediaTypes: Array(51).fill('text/plain') }, 'the filter names 51 media types; the limit is 50'],
  ])('refuses %o with BAD_REQUEST', async (input, message) => {
    await expect(resolveSearchFilters(catalog().reader, 'p', input, 2)).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: expect.stringContaining(message),
    });
  });

  it('refuses filters matching more documents than the limit', async () => {
    await expect(
      resolveSearchFilters(catalog(['a', 'b', 'c']).reader, 'p', { sourceIds: ['s'] }, 2),
    ).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: expect.stringContaining('match more than 2 documents'),
    });
  });
});
