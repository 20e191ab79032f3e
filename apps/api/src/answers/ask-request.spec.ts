import { describe, expect, it } from 'vitest';
import { SearchMode, TroveErrorCode } from '@trove/domain';
import { askRequest, parseStreamBody, withSearchFilters } from './ask-request';

const catalog = {
  scopes: [] as unknown[],
  searchScope(projectId: string, scope: unknown) {
    this.scopes.push({ projectId, scope });
    return Promise.resolve(['doc-1', 'doc-2']);
  },
};

describe('ask search filters', () => {
  it('resolves source, media type and date filters through the catalog into document ids for the search', async () => {
    const { request, filters } = parseStreamBody('p1', {
      question: 'how do I roll back?',
      search: {
        filters: {
          sourceIds: ['src_1'],
          mediaTypes: ['text/markdown'],
          languages: ['en'],
          updatedFrom: '2026-01-01',
        },
      },
    });
    const resolved = await withSearchFilters(request, filters, catalog, 100);
    expect(catalog.scopes).toEqual([
      {
        projectId: 'p1',
        scope: expect.objectContaining({ sourceIds: ['src_1'], mediaTypes: ['text/markdown'] }),
      },
    ]);
    expect(resolved.search).toMatchObject({
      mode: SearchMode.HYBRID,
      filters: { documentIds: ['doc-1', 'doc-2'], languages: ['en'] },
    });
  });

  it('leaves a request without filters alone and refuses unknown filter fields', async () => {
    const { request, filters } = parseStreamBody('p1', { question: 'q' });
    expect(await withSearchFilters(request, filters, catalog, 100)).toEqual(request);
    expect(() => parseStreamBody('p1', { question: 'q', search: { filters: { source: 'x' } } })).toThrow(
      expect.objectContaining({ code: TroveErrorCode.BadRequest }),
    );
  });
});

describe('ask question text', () => {
  it('refuses a question with a lone surrogate with BAD_REQUEST (GraphQL and the stream body alike)', () => {
    expect(() => askRequest({ projectId: 'p1', question: 'why\uDC00?' })).toThrow(
      expect.objectContaining({
        code: TroveErrorCode.BadRequest,
        message:
          'the question is not valid Unicode: a lone surrogate (U+DC00) at character 4; send well-formed UTF-16/UTF-8 text',
      }),
    );
    expect(() => parseStreamBody('p1', { question: '\uD800' })).toThrow(
      expect.objectContaining({ code: TroveErrorCode.BadRequest }),
    );
  });
});
