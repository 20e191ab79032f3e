import { describe, expect, it } from 'vitest';
import { rerankSchema, type SearchConfig, searchSchema } from '@trove/config';
import { type EmbeddingProvider, SearchMode } from '@trove/domain';
import { HybridSearch } from './hybrid-search';
import { FakeSearchClient } from './search-client.testing';
import { SEARCH_DEFAULTS, searchSettingsOptions } from './search-settings';

const defaults = searchSchema.parse({});
const rerank = rerankSchema.parse({});

/** Another valid value of a setting: the next number, the other boolean, another enum member. */
function another(key: keyof SearchConfig, value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number')
    return key === 'convexVectorWeight' || key === 'mmrLambda' ? 1 - value : value + 1;
  if (key === 'fusion') return value === 'convex' ? 'rrf' : 'convex';
  if (key === 'convexNormalization') return value === 'minmax' ? 'zscore' : 'minmax';
  throw new Error(`no other value known for the search setting ${key}: add one here`);
}

describe('search settings → HybridSearch options', () => {
  it('carries every search setting: changing any one changes the options', () => {
    const base = searchSettingsOptions(defaults, rerank);
    for (const key of Object.keys(searchSchema.shape) as (keyof SearchConfig)[]) {
      const changed = { ...defaults, [key]: another(key, defaults[key]) };
      expect(searchSettingsOptions(changed, rerank), `TROVE_SEARCH setting ${key}`).not.toEqual(base);
    }
    expect(searchSettingsOptions(defaults, { candidates: rerank.candidates + 1 })).not.toEqual(base);
  });

  it('makes the settings’ defaults HybridSearch’s own: no second copy of them', () => {
    expect(SEARCH_DEFAULTS).toEqual(searchSettingsOptions(defaults, rerank));
    expect(SEARCH_DEFAULTS).toMatchObject({
      fusion: defaults.fusion,
      convexVectorWeight: defaults.convexVectorWeight,
      rerankCandidates: rerank.candidates,
    });
  });

  it('searches with the settings’ defaults when built without options', async () => {
    const es = new FakeSearchClient();
    const embedder: EmbeddingProvider = {
      dimensions: 2,
      modelId: 'fake',
      embed: async (texts) => texts.map(() => [1, 0]),
      ping: async () => undefined,
    };
    await new HybridSearch(es, 't', embedder).search({
      projectId: 'p1',
      query: 'rollback a release',
      limit: 5,
      mode: SearchMode.HYBRID,
    });
    const keyword = es.searches.find((b) => 'query' in b)!;
    const vector = es.searches.find((b) => 'knn' in b)!;
    expect(keyword.size).toBe(defaults.candidates);
    expect(JSON.stringify(keyword.query)).toContain(`"title.en^${defaults.titleBoost}"`);
    expect(JSON.stringify(keyword.query)).toContain(`"headingPath.en^${defaults.headingBoost}"`);
    expect(vector).toMatchObject({
      knn: {
        k: defaults.candidates,
        num_candidates: defaults.numCandidates,
        rescore_vector: { oversample: defaults.oversample },
      },
    });
  });
});
