import type { Client } from '@elastic/elasticsearch';
import type { IndexGenerationRecords, StoredIndexGeneration } from '@trove/catalog';
import { type EmbeddingConfig, embeddingSchema, maskSecret, type SecretBox } from '@trove/config';
import {
  type EmbeddingProvider,
  type EmbeddingSettings,
  type IndexGeneration,
  IndexGenerationStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { CHUNK_MAPPING_VERSION, ChunkIndex, IndexNames } from '@trove/search';

/** A generation with what reads and writes it: its concrete index and its model. */
export interface LiveGeneration {
  generation: IndexGeneration;
  index: ChunkIndex;
  embedder: EmbeddingProvider;
}

export interface IndexGenerationsOptions {
  es: Client;
  /** The generations as the catalog records them. */
  records: IndexGenerationRecords;
  indexPrefix: string;
  /** Replicas of every generation's index (TROVE_ES_REPLICAS); unset: the ChunkIndex default. */
  replicas?: string;
  /** The configured embedding model: the first generation's, when none is recorded yet. */
  embedding: EmbeddingConfig;
  /** Seals API keys of models set through the API (TROVE_SECRET_KEY). */
  secrets?: SecretBox;
  /** How long the live generations are reused before PostgreSQL is asked again. */
  ttlMs?: number;
  createEmbedder?: (config: EmbeddingConfig) => EmbeddingProvider;
  log?: (message: string) => void;
}

/** How long other processes may keep using what they read: a rebuild waits this out (×2). */
export const DEFAULT_GENERATIONS_TTL_MS = 2_000;

/** The embedding settings of a configuration, without its key. */
export function embeddingSettings(config: EmbeddingConfig): EmbeddingSettings {
  return {
    provider: config.provider,
    baseUrl: config.baseUrl,
    profile: config.profile,
    ...(config.model ? { model: config.model } : {}),
    batchSize: config.batchSize,
    timeoutMs: config.timeoutMs,
  };
}

/**
 * True when two settings name the same model, so they make the same vectors: provider, profile
 * and model name. Not the server's address, key, batch size or timeout — the api and the worker
 * may reach one model at different addresses (a container network), and each process uses its
 * own `TROVE_EMBEDDING_*` connection settings for the model they name.
 */
export function sameModel(a: EmbeddingSettings, b: EmbeddingSettings): boolean {
  return a.provider === b.provider && a.profile === b.profile && (a.model ?? '') === (b.model ?? '');
}

/**
 * The chunk index's generations as the api and the worker use them. Searches read the ACTIVE
 * generation's index with its model; ingests write every live generation (ACTIVE, and BUILDING
 * while a model change is rebuilt), each with its own model. What PostgreSQL says is cached for
 * `ttlMs`, so a change reaches every process within that time; a rebuild waits it out before
 * copying and before dropping the old index.
 */
export class IndexGenerations {
  private readonly names: IndexNames;
  private readonly ttlMs: number;
  private cached?: { at: number; live: LiveGeneration[] };
  private readonly embedders = new Map<number, EmbeddingProvider>();
  private warnedAbout?: number;

  constructor(private readonly options: IndexGenerationsOptions) {
    this.names = new IndexNames(options.indexPrefix);
    this.ttlMs = options.ttlMs ?? DEFAULT_GENERATIONS_TTL_MS;
  }

  /**
   * Records the first generation when none is (the index the configured model has always used,
   * created with its alias if missing) and makes sure the ACTIVE generation's index and alias
   * exist. Safe to run from every process at start.
   */
  async bootstrap(): Promise<LiveGeneration> {
    const { records, es, embedding } = this.options;
    let active = (await records.live()).find((g) => g.status === IndexGenerationStatus.ACTIVE);
    if (!active) {
      // Before generations existed there was one index per vector size behind the alias: adopt it.
      const embedder = this.embedderFor(embedding);
      const legacy = new ChunkIndex(es, this.options.indexPrefix, embedder.dimensions, {
        replicas: this.options.replicas,
      });
      await legacy.ensure();
      active = await records.bootstrap({
        indexName: (await legacy.aliasTarget())!,
        embedding: embeddingSettings(embedding),
        modelId: embedder.modelId,
        dimensions: embedder.dimensions,
      });
    }
    const live = this.liveOf(active);
    await live.index.ensureIndex();
    if ((await live.index.aliasTarget()) !== active.indexName) await live.index.takeAlias();
    if (!sameModel(active.embedding, embeddingSettings(embedding)) && this.warnedAbout !== active.id) {
      this.warnedAbout = active.id;
      this.options.log?.(
        `the index is built with ${active.modelId} (${active.embedding.provider}, profile ${active.embedding.profile}, ` +
          `generation ${active.id}); TROVE_EMBEDDING_* names another model, which is not used: ` +
          'change the model with updateRagConfig(input: {embedding: …}), which rebuilds the index',
      );
    }
    this.cached = undefined;
    return live;
  }

  /** The generation searches use. */
  async active(): Promise<LiveGeneration> {
    const live = await this.live();
    const active = live.find((g) => g.generation.status === IndexGenerationStatus.ACTIVE);
    if (!active) {
      throw new TroveError(TroveErrorCode.ServiceUnavailable, 'the chunk index has no active generation yet');
    }
    return active;
  }

  /** The generation being built, if a model change is under way. */
  async building(): Promise<LiveGeneration | undefined> {
    return (await this.live()).find((g) => g.generation.status === IndexGenerationStatus.BUILDING);
  }

  /** Every generation an ingest writes, ACTIVE first. */
  async writable(): Promise<LiveGeneration[]> {
    return this.live();
  }

  /** A generation by id, live or not (rebuild activities address theirs by id). */
  async byId(id: number): Promise<LiveGeneration> {
    const generation = await this.options.records.get(id);
    if (!generation) {
      throw new TroveError(TroveErrorCode.Internal, `index generation ${id} does not exist`, {
        permanent: true,
      });
    }
    return this.liveOf(generation);
  }

  /** Forgets what was read, so the next call asks PostgreSQL (after a change in this process). */
  invalidate(): void {
    this.cached = undefined;
  }

  /**
   * Records a BUILDING generation for `embedding` and creates its index; the caller starts the
   * rebuild workflow. The model is asked for one vector first, so a wrong URL, key or profile is
   * refused here rather than failing the rebuild later.
   */
  async prepareRebuild(embedding: EmbeddingConfig): Promise<IndexGeneration> {
    const parsed = embeddingSchema.safeParse(embedding);
    if (!parsed.success) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `invalid embedding settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    const config = parsed.data;
    this.invalidate(); // compare with what PostgreSQL says now, not with a cached generation
    const active = (await this.active()).generation;
    if (sameModel(active.embedding, embeddingSettings(config))) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the index is already built with ${active.modelId} (profile ${active.embedding.profile}); nothing to rebuild ` +
          '(the server address and key of a model come from each process’s TROVE_EMBEDDING_* settings)',
      );
    }
    if (config.apiKey && !this.options.secrets) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'storing an embedding API key needs TROVE_SECRET_KEY (32 random bytes, base64) on the api and the worker',
      );
    }
    let embedder: EmbeddingProvider;
    try {
      embedder = this.embedderFor(config);
    } catch (error) {
      throw new TroveError(TroveErrorCode.BadRequest, (error as Error).message);
    }
    await this.probe(embedder, config);
    const suffix = Date.now().toString(36);
    const generation = await this.options.records.startBuilding({
      indexName: this.names.chunksIndex(CHUNK_MAPPING_VERSION, embedder.dimensions, suffix),
      embedding: embeddingSettings(config),
      ...(config.apiKey ? { apiKeySealed: this.options.secrets!.encrypt(config.apiKey) } : {}),
      modelId: embedder.modelId,
      dimensions: embedder.dimensions,
    });
    this.embedders.set(generation.id, embedder);
    try {
      await this.liveOf(generation).index.ensureIndex();
    } catch (error) {
      await this.options.records.finish(
        generation.id,
        IndexGenerationStatus.FAILED,
        (error as Error).message,
      );
      throw error;
    }
    this.invalidate();
    return publicGeneration(generation);
  }

  private async probe(embedder: EmbeddingProvider, config: EmbeddingConfig): Promise<void> {
    let vector: number[] | undefined;
    try {
      [vector] = await embedder.embed(
        ['Trove checks the embedding model before rebuilding the index.'],
        'passage',
      );
    } catch (error) {
      const key = config.apiKey ? `, key ${maskSecret(config.apiKey)}` : '';
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the embedding model ${embedder.modelId} at ${config.baseUrl}${key} did not answer: ${(error as Error).message}`,
      );
    }
    if (vector?.length !== embedder.dimensions) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the embedding model ${embedder.modelId} returned ${vector?.length ?? 0} dimensions, ` +
          `but its profile ${config.profile} says ${embedder.dimensions}`,
      );
    }
  }

  private async live(): Promise<LiveGeneration[]> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.live;
    const generations = await this.options.records.live();
    const live = generations.map((g) => this.liveOf(g));
    this.cached = { at: Date.now(), live };
    return live;
  }

  private liveOf(generation: StoredIndexGeneration): LiveGeneration {
    let embedder = this.embedders.get(generation.id);
    if (!embedder) {
      embedder = this.embedderFor(this.configOf(generation));
      this.embedders.set(generation.id, embedder);
    }
    return {
      generation: publicGeneration(generation),
      index: new ChunkIndex(this.options.es, this.options.indexPrefix, generation.dimensions, {
        index: generation.indexName,
        replicas: this.options.replicas,
      }),
      embedder,
    };
  }

  /**
   * A generation's embedding configuration: this process's configured one when it names the same
   * model (its address, key and query lane), else the settings recorded with the generation, key
   * unsealed. The query lane (TROVE_EMBEDDING_QUERY_URL) belongs to the configured model only: a
   * generation of another model embeds its queries where it embeds its passages.
   */
  private configOf(generation: StoredIndexGeneration): EmbeddingConfig {
    const configured = this.options.embedding;
    if (sameModel(generation.embedding, embeddingSettings(configured))) return configured;
    if (configured.queryBaseUrl) {
      this.options.log?.(
        `index generation ${generation.id} uses ${generation.modelId} (profile ${generation.embedding.profile}), ` +
          `not the configured ${configured.profile}: its query embeddings go to ${generation.embedding.baseUrl}, ` +
          'not to the query embedder of TROVE_EMBEDDING_QUERY_URL',
      );
    }
    let apiKey: EmbeddingConfig['apiKey'] | undefined;
    if (generation.apiKeySealed) {
      if (!this.options.secrets) {
        throw new TroveError(
          TroveErrorCode.Internal,
          `index generation ${generation.id} has a sealed API key but TROVE_SECRET_KEY is not set`,
          { permanent: true },
        );
      }
      apiKey = this.options.secrets.decrypt(generation.apiKeySealed) as EmbeddingConfig['apiKey'];
    }
    return { ...generation.embedding, ...(apiKey ? { apiKey } : {}) } as EmbeddingConfig;
  }

  private embedderFor(config: EmbeddingConfig): EmbeddingProvider {
    if (this.options.createEmbedder) return this.options.createEmbedder(config);
    return createEmbeddingProvider(config, { log: this.options.log });
  }
}

/** A generation without its sealed key. */
export function publicGeneration(generation: StoredIndexGeneration): IndexGeneration {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { apiKeySealed, ...rest } = generation;
  return rest;
}

/**
 * An EmbeddingProvider that embeds with the ACTIVE generation's model at the time of each call,
 * for code that holds one embedder for the process's life (answers, health checks). `modelId` and
 * `dimensions` are those of the generation last used (the configured model's before the first call).
 */
export function activeEmbedder(generations: IndexGenerations, initial: EmbeddingProvider): EmbeddingProvider {
  let last = initial;
  const current = async () => {
    last = (await generations.active()).embedder;
    return last;
  };
  return {
    get dimensions() {
      return last.dimensions;
    },
    get modelId() {
      return last.modelId;
    },
    embed: async (texts, purpose, options) => (await current()).embed(texts, purpose, options),
    ping: async () => (await current()).ping(),
  };
}
