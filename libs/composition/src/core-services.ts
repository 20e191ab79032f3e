import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import { SecretBox, type WorkerConfig } from '@trove/config';
import { IndexGenerations } from '@trove/index-generations';
import { RagConfigStore, type RagSection, type RagSettings } from '@trove/rag-config';
import { createElasticsearchClient } from '@trove/search';

/** The settings both the api and the worker have, and all the core services read. */
export type CoreServicesConfig = Pick<WorkerConfig, 'database' | 'elasticsearch' | 'embedding' | 'secrets'>;

export interface CoreServicesOptions {
  /** The source types this process has connectors for (a stored source of another type is an error when read). */
  sourceTypes: readonly string[];
  /** Where a service's warnings go, by the service's name (`IndexGenerations`, `RagConfig`). */
  log: (service: string) => (message: string) => void;
}

/**
 * What the api and the worker build alike, built once per process from one place, so the two
 * cannot open the catalog, seal secrets or follow index generations and settings differently.
 * Nothing here connects yet: the catalog's pool and the Elasticsearch client connect on first
 * use, and `catalog.lifecycle.ensure()` / `generations.bootstrap()` stay the caller's start-up steps.
 */
export interface CoreServices {
  es: ElasticsearchClient;
  /** Every catalog repository over one pool; consumers are each given the ports they use. */
  catalog: CatalogRepositories;
  /** Seals and opens stored secrets; unset without TROVE_SECRET_KEY. */
  secrets?: SecretBox;
  /** The chunk index's generations, one per embedding model. */
  generations: IndexGenerations;
  /** The RAG settings store: the environment's `defaults` overlaid with the stored changes. */
  ragConfig(options: { defaults: RagSettings; sections?: RagSection[] }): RagConfigStore;
}

export function createCoreServices(config: CoreServicesConfig, options: CoreServicesOptions): CoreServices {
  const es = createElasticsearchClient(config.elasticsearch.url);
  const catalog = openCatalog({ ...config.database, sourceTypes: options.sourceTypes });
  const secrets = config.secrets.key ? new SecretBox(config.secrets.key) : undefined;
  const generations = new IndexGenerations({
    es,
    records: catalog.indexGenerations,
    indexPrefix: config.elasticsearch.indexPrefix,
    replicas: config.elasticsearch.replicas,
    embedding: config.embedding,
    secrets,
    ttlMs: config.elasticsearch.generationsTtlMs,
    log: options.log('IndexGenerations'),
  });
  return {
    es,
    catalog,
    secrets,
    generations,
    ragConfig: ({ defaults, sections }) =>
      new RagConfigStore({
        records: catalog.ragConfig,
        defaults,
        secrets,
        // Settings changed on one process are seen by the others within the generations' TTL.
        ttlMs: config.elasticsearch.generationsTtlMs,
        sections,
        log: options.log('RagConfig'),
      }),
  };
}
