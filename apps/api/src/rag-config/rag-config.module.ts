import { Module } from '@nestjs/common';
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import type { CoreServices } from '@trove/composition';
import { SegmenterTokenCounter } from '@trove/chunking';
import type { ApiConfig } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { IndexGenerations } from '@trove/index-generations';
import { RagConfigStore } from '@trove/rag-config';
import { CitationLinks } from '../core/citation-links';
import { ASKER, CONFIG, CORE_SERVICES, ELASTICSEARCH, EMBEDDER, SEARCHER } from '../core/tokens';
import { IndexGenerationsModule } from '../index-generations/index-generations.module';
import { LocalLlmLifecycle } from './local-llm.lifecycle';
import { RagConfigResolver } from './rag-config.resolver';
import { RagConfigService } from './rag-config.service';
import { ragDefaults } from './rag-defaults';
import { RagRuntime } from './rag-runtime';

/**
 * Retrieval and answer settings changeable at runtime, and the search and answerer built from the
 * current ones (exported for the search and answers modules).
 */
@Module({
  imports: [IndexGenerationsModule],
  providers: [
    // The environment's settings, overlaid with changes made through the API.
    {
      provide: RagConfigStore,
      useFactory: (config: ApiConfig, core: CoreServices) =>
        core.ragConfig({ defaults: ragDefaults(config) }),
      inject: [CONFIG, CORE_SERVICES],
    },
    {
      provide: RagRuntime,
      useFactory: (
        config: ApiConfig,
        store: RagConfigStore,
        es: ElasticsearchClient,
        embedder: EmbeddingProvider,
        generations: IndexGenerations,
        links: CitationLinks,
      ) =>
        new RagRuntime({
          store,
          es,
          embedder,
          generations,
          links,
          tokenCounter: new SegmenterTokenCounter(),
          config,
        }),
      inject: [CONFIG, RagConfigStore, ELASTICSEARCH, EMBEDDER, IndexGenerations, CitationLinks],
    },
    // Search and answers follow the current settings (RagRuntime rebuilds them on a change): their
    // tokens name the ports the services use, not HybridSearch and Answerer, which these are not.
    { provide: SEARCHER, useFactory: (runtime: RagRuntime) => runtime.searcher, inject: [RagRuntime] },
    { provide: ASKER, useFactory: (runtime: RagRuntime) => runtime.asker, inject: [RagRuntime] },
    RagConfigService,
    RagConfigResolver,
    LocalLlmLifecycle,
  ],
  exports: [SEARCHER, ASKER],
})
export class RagConfigModule {}
