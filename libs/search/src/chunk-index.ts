import type { Client } from '@elastic/elasticsearch';
import type { EmbeddedChunk } from '@trove/domain';
import { isChunkId, TroveError, TroveErrorCode } from '@trove/domain';
import type { ChunkRemoval, ChunkWriter, GenerationIndex, StoredChunk } from './chunk-index.ports';
import {
  DEFAULT_REPLICAS,
  deleteMatching,
  deleteMatchingVisible,
  elasticsearchError,
  IndexNames,
  replicaSettings,
} from './elasticsearch';

/** How often chunk indices make new writes searchable, searched or not (Elasticsearch's default period). */
export const REFRESH_INTERVAL = '1s';

/** Bump when the mapping changes incompatibly; a new index is created behind the alias. */
export const CHUNK_MAPPING_VERSION = 1;

const LANGUAGE_SUBFIELDS = {
  en: { type: 'text', analyzer: 'english' },
  ru: { type: 'text', analyzer: 'russian' },
  cjk: { type: 'text', analyzer: 'cjk' },
} as const;

export function chunkMappings(dimensions: number) {
  return {
    dynamic: 'strict' as const,
    properties: {
      chunkId: { type: 'keyword' as const },
      projectId: { type: 'keyword' as const },
      documentId: { type: 'keyword' as const },
      position: { type: 'integer' as const },
      title: { type: 'text' as const, analyzer: 'standard', fields: LANGUAGE_SUBFIELDS },
      headingPath: { type: 'text' as const, analyzer: 'standard', fields: LANGUAGE_SUBFIELDS },
      text: { type: 'text' as const, analyzer: 'standard', fields: LANGUAGE_SUBFIELDS },
      language: { type: 'keyword' as const },
      tokenCount: { type: 'integer' as const },
      hasCode: { type: 'boolean' as const },
      contentHash: { type: 'keyword' as const },
      codeLanguages: { type: 'keyword' as const },
      anchor: { type: 'keyword' as const },
      page: { type: 'integer' as const },
      pageEnd: { type: 'integer' as const },
      chapter: { type: 'keyword' as const },
      ocr: { type: 'boolean' as const },
      ocrConfidence: { type: 'byte' as const },
      citationUrl: { type: 'keyword' as const, index: false },
      // Stored only: the API renders it to a link.
      citation: { type: 'object' as const, enabled: false },
      embeddingModel: { type: 'keyword' as const },
      embedding: {
        type: 'dense_vector' as const,
        dims: dimensions,
        index: true,
        similarity: 'cosine' as const,
        index_options: { type: 'int8_hnsw' as const },
      },
      indexedAt: { type: 'date' as const },
    },
  };
}

/** The chunk index: versioned index behind an alias, bulk upserts checked item by item. */
export class ChunkIndex implements ChunkWriter, ChunkRemoval, GenerationIndex {
  readonly names: IndexNames;
  /** Where reads and writes go: the alias, or one generation's concrete index. */
  readonly target: string;

  private readonly replicas: string;

  /**
   * `index`: a generation's concrete index (see IndexGenerations); unset: the alias, which points
   * at the ACTIVE generation. Deletions always reach every generation's index. `replicas`: the
   * index's replicas (TROVE_ES_REPLICAS, see replicaSettings), applied when it is created or ensured.
   */
  constructor(
    private readonly es: Client,
    prefix: string,
    readonly dimensions: number,
    options: { index?: string; replicas?: string } = {},
  ) {
    this.names = new IndexNames(prefix);
    this.target = options.index ?? this.names.chunks;
    this.replicas = options.replicas ?? DEFAULT_REPLICAS;
  }

  /** One shard: see docs/operations.md on when an index needs more. */
  private get settings() {
    return { number_of_shards: 1, ...this.dynamicSettings };
  }

  /**
   * Applied on creation and by every ensure. The refresh interval is set explicitly, so a shard
   * without searches keeps refreshing on schedule (no search-idle shard): batches write with
   * `refresh: 'wait_for'` and rely on that schedule instead of forcing a refresh each.
   */
  private get dynamicSettings() {
    return { refresh_interval: REFRESH_INTERVAL, ...replicaSettings(this.replicas) };
  }

  /** The concrete index the alias points at, or undefined when there is no alias yet. */
  async aliasTarget(): Promise<string | undefined> {
    try {
      if (!(await this.es.indices.existsAlias({ name: this.names.chunks }))) return undefined;
      return Object.keys(await this.es.indices.getAlias({ name: this.names.chunks }))[0];
    } catch (error) {
      throw elasticsearchError(error, 'reading the chunk alias');
    }
  }

  /** Creates this generation's concrete index (no alias) if missing: a rebuild's target. */
  async ensureIndex(): Promise<void> {
    try {
      await this.es.indices.create(
        {
          index: this.target,
          settings: this.settings,
          mappings: chunkMappings(this.dimensions),
        },
        { ignore: [400] },
      );
      if (!(await this.es.indices.exists({ index: this.target }))) {
        throw new TroveError(TroveErrorCode.Internal, `could not create the chunk index ${this.target}`);
      }
      // Additive mapping changes (new fields) and the replica setting apply in place, as in ensure().
      await this.es.indices.putMapping({ index: this.target, ...chunkMappings(this.dimensions) });
      await this.es.indices.putSettings({ index: this.target, settings: this.dynamicSettings });
    } catch (error) {
      throw elasticsearchError(error, `creating the chunk index ${this.target}`);
    }
  }

  /** Points the alias at this generation's index, atomically (one update_aliases request). */
  async takeAlias(): Promise<void> {
    const alias = this.names.chunks;
    try {
      const current = (await this.es.indices.existsAlias({ name: alias }))
        ? Object.keys(await this.es.indices.getAlias({ name: alias }))
        : [];
      await this.es.indices.updateAliases({
        actions: [
          ...current.filter((i) => i !== this.target).map((index) => ({ remove: { index, alias } })),
          { add: { index: this.target, alias, is_write_index: true } },
        ],
      });
    } catch (error) {
      throw elasticsearchError(error, `pointing ${alias} at ${this.target}`);
    }
  }

  /** Removes this generation's index (a retired or failed generation); absent is fine. */
  async dropIndex(): Promise<void> {
    if (this.target === this.names.chunks) {
      throw new TroveError(TroveErrorCode.Internal, 'refusing to drop the chunk alias itself');
    }
    try {
      await this.es.indices.delete({ index: this.target }, { ignore: [404] });
    } catch (error) {
      throw elasticsearchError(error, `removing the chunk index ${this.target}`);
    }
  }

  /** Chunks in this index (all projects). */
  async count(): Promise<number> {
    try {
      return (await this.es.count({ index: this.target })).count;
    } catch (error) {
      throw elasticsearchError(error, 'counting chunks');
    }
  }

  /**
   * One page of chunks in chunk-id order, after `after` (a rebuild copies the index page by page;
   * the order is stable, so a retried page reads the same chunks). `withVectors` includes embeddings.
   */
  async page(
    after: string | undefined,
    size: number,
    withVectors: boolean,
  ): Promise<{ chunks: StoredChunk[]; last?: string }> {
    try {
      const response = await this.es.search<StoredChunk>({
        index: this.target,
        size,
        query: { match_all: {} },
        sort: [{ chunkId: 'asc' }],
        ...(after ? { search_after: [after] } : {}),
        _source: withVectors ? true : { excludes: ['embedding'] },
      });
      const chunks = response.hits.hits.map((hit) => hit._source!);
      return { chunks, last: chunks.at(-1)?.chunkId };
    } catch (error) {
      throw elasticsearchError(error, 'reading a page of chunks');
    }
  }

  /** Which of `chunkIds` this index holds. */
  async existingIds(chunkIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    if (chunkIds.length === 0) return found;
    try {
      const response = await this.es.mget({ index: this.target, ids: chunkIds, _source: false });
      for (const doc of response.docs) if ('found' in doc && doc.found) found.add(doc._id);
      return found;
    } catch (error) {
      throw elasticsearchError(error, 'checking chunk ids');
    }
  }

  /**
   * Writes stored chunks (copied from another generation, with this generation's vectors) unless a
   * chunk with the same id is here already: an ingest that ran during the rebuild wrote a newer
   * version, which a copy must not overwrite. Returns how many were written.
   */
  async createMissing(chunks: StoredChunk[]): Promise<number> {
    if (chunks.length === 0) return 0;
    const indexedAt = new Date().toISOString();
    const operations = chunks.flatMap((chunk) => [
      { create: { _index: this.target, _id: chunk.chunkId } },
      { ...chunk, indexedAt },
    ]);
    let response;
    try {
      response = await this.es.bulk({ operations, refresh: false });
    } catch (error) {
      throw elasticsearchError(error, 'copying chunks');
    }
    const items = response.items.map((item) => item.create!);
    const failed = items.filter((item) => item.error && item.status !== 409);
    if (failed.length > 0) {
      const transient = failed.some((f) => f.status === 429 || f.status >= 500);
      throw new TroveError(
        transient ? TroveErrorCode.ServiceUnavailable : TroveErrorCode.IndexFailed,
        `${failed.length} of ${chunks.length} chunks were not copied (first: ${failed[0].error!.type}: ${failed[0].error!.reason})`,
        { permanent: !transient },
      );
    }
    return items.filter((item) => !item.error).length;
  }

  /** Removes chunks by id from this index only (a rebuild's reconciliation). */
  async deleteIds(chunkIds: string[]): Promise<number> {
    if (chunkIds.length === 0) return 0;
    return deleteMatching(this.es, this.target, { ids: { values: chunkIds } });
  }

  /** Creates the versioned index and its alias if missing; fails if the alias points at another vector size. */
  async ensure(): Promise<void> {
    const alias = this.names.chunks;
    const index = this.names.chunksIndex(CHUNK_MAPPING_VERSION, this.dimensions);
    try {
      if (await this.es.indices.existsAlias({ name: alias })) {
        const current = Object.keys(await this.es.indices.getAlias({ name: alias }));
        if (!current.includes(index)) {
          throw new TroveError(
            TroveErrorCode.Internal,
            `the chunk alias ${alias} points at ${current.join(', ')}, but this configuration needs ${index} ` +
              `(a different embedding size or mapping version): start once with the previous model, then change it ` +
              'with the changeEmbeddingModel mutation (it rebuilds the index), or use a new index prefix',
            { permanent: true },
          );
        }
        // Additive mapping changes (new fields) apply in place; incompatible ones need a new version.
        await this.es.indices.putMapping({ index, ...chunkMappings(this.dimensions) });
        // The replicas too: an index created on one node gets its replica once the cluster grows.
        await this.es.indices.putSettings({ index, settings: this.dynamicSettings });
        return;
      }
      await this.es.indices.create(
        {
          index,
          settings: this.settings,
          mappings: chunkMappings(this.dimensions),
          aliases: { [alias]: { is_write_index: true } },
        },
        { ignore: [400] },
      );
      // A concurrent creator may have won the race (400 resource_already_exists); the alias must exist now.
      if (!(await this.es.indices.existsAlias({ name: alias }))) {
        throw new TroveError(TroveErrorCode.Internal, `could not create the chunk index ${index}`);
      }
    } catch (error) {
      throw elasticsearchError(error, `creating the chunk index ${index}`);
    }
  }

  /** Writes chunks (overwriting same ids). Any failed item fails the call: a partial bulk is a failure. */
  /**
   * Writes chunks (same ids overwrite). `waitForRefresh`: returns once they are searchable, at the
   * next scheduled refresh, rather than leaving that to a later forced refresh (a batch's write).
   */
  async upsert(
    chunks: EmbeddedChunk[],
    embeddingModel: string,
    options: { waitForRefresh?: boolean } = {},
  ): Promise<void> {
    if (chunks.length === 0) return;
    const indexedAt = new Date().toISOString();
    const operations = chunks.flatMap((chunk) => [
      { index: { _index: this.target, _id: chunk.id } },
      {
        chunkId: chunk.id,
        projectId: chunk.projectId,
        documentId: chunk.documentId,
        position: chunk.position,
        title: chunk.title,
        headingPath: chunk.headingPath,
        text: chunk.text,
        language: chunk.language,
        tokenCount: chunk.tokenCount,
        hasCode: chunk.hasCode,
        contentHash: chunk.contentHash,
        codeLanguages: chunk.codeLanguages,
        ...(chunk.anchor ? { anchor: chunk.anchor } : {}),
        ...(chunk.page ? { page: chunk.page, pageEnd: chunk.pageEnd ?? chunk.page } : {}),
        ...(chunk.chapter ? { chapter: chunk.chapter } : {}),
        ...(chunk.ocr ? { ocr: true, ocrConfidence: chunk.ocrConfidence } : {}),
        ...(chunk.citation ? { citation: chunk.citation } : {}),
        embeddingModel,
        embedding: chunk.embedding,
        indexedAt,
      } satisfies StoredChunk,
    ]);
    let response;
    try {
      // Without waitForRefresh, callers refresh once when a document is complete (see deleteWhere).
      response = await this.es.bulk({ operations, refresh: options.waitForRefresh ? 'wait_for' : false });
    } catch (error) {
      throw elasticsearchError(error, 'writing chunks');
    }
    if (!response.errors) return;
    const failed = response.items
      .map((item) => item.index)
      .filter((result) => result?.error)
      .map((result) => ({
        status: result!.status,
        reason: `${result!.error!.type}: ${result!.error!.reason}`,
      }));
    const transient = failed.some((f) => f.status === 429 || f.status >= 500);
    throw new TroveError(
      transient ? TroveErrorCode.ServiceUnavailable : TroveErrorCode.IndexFailed,
      `${failed.length} of ${chunks.length} chunks were not indexed (first: ${failed[0].reason})`,
      { permanent: !transient },
    );
  }

  /**
   * Stored embeddings by content hash, from the same model, whatever document holds them. The
   * hash covers exactly the text that was embedded, so a chunk that moved (a paragraph inserted
   * above it), an unchanged chunk of a new version, or the same text in another document reuses
   * the vector. One hit per hash (collapsed), however many chunks share it.
   */
  async embeddingsByContentHash(hashes: string[], embeddingModel: string): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    if (hashes.length === 0) return found;
    try {
      const response = await this.es.search<Pick<StoredChunk, 'contentHash' | 'embedding'>>({
        index: this.target,
        size: hashes.length,
        query: {
          bool: {
            filter: [{ terms: { contentHash: hashes } }, { term: { embeddingModel } }],
          },
        },
        collapse: { field: 'contentHash' },
        _source: ['contentHash', 'embedding'],
      });
      for (const hit of response.hits.hits) {
        if (hit._source?.embedding) found.set(hit._source.contentHash, hit._source.embedding);
      }
      return found;
    } catch (error) {
      throw elasticsearchError(error, 'reading stored embeddings');
    }
  }

  /** Removes a document's chunks except `keepIds`: the stale ones after a re-ingest, or all. */
  async deleteDocumentChunks(documentId: string, keepIds: string[] = []): Promise<number> {
    return this.deleteWhere({
      bool: {
        filter: [{ term: { documentId } }],
        must_not: keepIds.length ? [{ ids: { values: keepIds } }] : [],
      },
    });
  }

  /**
   * Removes, for each of several documents, its chunks except the ones it keeps (a batch of
   * re-ingested documents): one query for all of them, so a batch pays one refresh, not one each.
   */
  async deleteStaleChunks(
    documents: { documentId: string; keepIds: string[] }[],
    options: { beforeWaitedWrite?: boolean } = {},
  ): Promise<number> {
    if (documents.length === 0) return 0;
    const query = {
      bool: {
        minimum_should_match: 1,
        should: documents.map(({ documentId, keepIds }) => ({
          bool: {
            filter: [{ term: { documentId } }],
            must_not: keepIds.length ? [{ ids: { values: keepIds } }] : [],
          },
        })),
      },
    };
    // A batch: its documents' earlier chunks are visible (see deleteMatchingVisible), and its
    // chunk writes right after wait for the refresh that shows these deletions with them.
    if (options.beforeWaitedWrite)
      return deleteMatchingVisible(this.es, this.names.allChunkIndices, query, false);
    return this.deleteWhere(query);
  }

  /** Removes the chunks of many documents (a sync's deletions), a thousand ids per query. */
  async deleteDocumentsChunks(documentIds: string[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < documentIds.length; i += 1_000) {
      removed += await this.deleteWhere({ terms: { documentId: documentIds.slice(i, i + 1_000) } });
    }
    return removed;
  }

  async deleteProjectChunks(projectId: string): Promise<number> {
    return this.deleteWhere({ term: { projectId } });
  }

  async countDocumentChunks(documentId: string): Promise<number> {
    try {
      const response = await this.es.count({ index: this.target, query: { term: { documentId } } });
      return response.count;
    } catch (error) {
      throw elasticsearchError(error, 'counting chunks');
    }
  }

  async getDocumentChunks(documentId: string): Promise<StoredChunk[]> {
    try {
      const response = await this.es.search<StoredChunk>({
        index: this.target,
        query: { term: { documentId } },
        sort: [{ position: 'asc' }],
        size: 10_000,
        _source: { excludes: ['embedding'] },
      });
      return response.hits.hits.map((hit) => hit._source!);
    } catch (error) {
      throw elasticsearchError(error, 'reading chunks');
    }
  }

  async getChunk(chunkId: string): Promise<StoredChunk | undefined> {
    if (!isChunkId(chunkId)) return undefined; // names nothing; Elasticsearch would answer an error
    try {
      const response = await this.es.get<StoredChunk>(
        { index: this.target, id: chunkId, _source_excludes: ['embedding'] },
        { ignore: [404] },
      );
      return response.found ? response._source : undefined;
    } catch (error) {
      throw elasticsearchError(error, 'reading a chunk');
    }
  }

  /**
   * Stored vectors of chunks by id (answers compare questions and cited sentences with them);
   * ids that name no chunk are left out of the map.
   */
  async vectorsByChunkIds(chunkIds: string[], signal?: AbortSignal): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    const ids = [...new Set(chunkIds)].filter(isChunkId);
    if (ids.length === 0) return found;
    try {
      const response = await this.es.mget<Pick<StoredChunk, 'embedding'>>(
        { index: this.target, ids, _source: ['embedding'] },
        { signal },
      );
      for (const doc of response.docs) {
        if ('found' in doc && doc.found && doc._source?.embedding) found.set(doc._id, doc._source.embedding);
      }
      return found;
    } catch (error) {
      throw elasticsearchError(error, 'reading chunk vectors');
    }
  }

  /** Makes every write so far visible to search (and to the id listing of deleteWhere). */
  async refresh(): Promise<void> {
    try {
      await this.es.indices.refresh({
        index: this.names.allChunkIndices,
        allow_no_indices: true,
        ignore_unavailable: true,
      });
    } catch (error) {
      throw elasticsearchError(error, 'refreshing the chunk index');
    }
  }

  /** Deletions reach every generation's index: the active one and one being rebuilt. */
  private deleteWhere(query: object): Promise<number> {
    return deleteMatching(this.es, this.names.allChunkIndices, query);
  }
}
