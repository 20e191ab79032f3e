import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { MulterModule } from '@nestjs/platform-express';
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Answerer } from '@trove/answering';
import { Catalog } from '@trove/catalog';
import { SegmenterTokenCounter } from '@trove/chunking';
import { type ApiConfig, SecretBox, subscriptionLimitsSchema } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { RagConfigStore } from '@trove/rag-config';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { activeEmbedder, IndexGenerations } from '@trove/index-generations';
import { LocalBlobStore } from '@trove/storage';
import { LoggerModule } from 'nestjs-pino';
import { apiLogging } from './core/request-logging';
import { AccessGuard } from './access/access.guard';
import { RequestAdmission } from './access/request-admission';
import { AccessRegistryCheck } from './access/access-registry.check';
import { ApiKeyAuthenticator } from './access/api-key-authenticator';
import { ProjectAccess } from './access/project-access.service';
import { ProjectScopeInterceptor } from './access/project-scope.interceptor';
import { RequestRateLimit } from './access/rate-limit';
import type { GraphqlContext } from './access/request-principal';
import { RESOLVERS } from './schema';
import { ApiKeysService } from './api-keys/api-keys.service';
import { GRAPHQL_PATH } from './core/graphql-authentication';
import { SubscriptionGate } from './core/graphql-subscriptions';
import { formatGraphqlError, graphqlProtection } from './core/graphql-limits';
import { IndexBootstrapService } from './core/index-bootstrap.service';
import { BLOBS, CONFIG, ELASTICSEARCH, EMBEDDER, SOURCE_DEFINITIONS, TEMPORAL } from './core/tokens';
import { createSourceDefinitions, registeredSourceTypes } from '@trove/source-definitions';
import { ragDefaults } from './rag-config/rag-defaults';
import { RagConfigService } from './rag-config/rag-config.service';
import { RagRuntime } from './rag-config/rag-runtime';
import { TroveExceptionFilter } from './core/trove-exception.filter';
import { TroveIdPipe } from './core/trove-id.pipe';
import { CitationLinks } from './core/citation-links';
import { AskController } from './answers/ask.controller';
import { AskService } from './answers/ask.service';
import { SearchService } from './search/search.service';
import { ChunksService } from './documents/chunks.service';
import { DocumentsController } from './documents/documents.controller';
import { OriginalsController } from './documents/originals.controller';
import { DocumentsService } from './documents/documents.service';
import { HealthController } from './health/health.controller';
import { McpController } from './mcp/mcp.controller';
import { IndexGenerationsService } from './index-generations/index-generations.service';
import { ProjectsService } from './projects/projects.service';
import { ArchivesController } from './sources/archives.controller';
import { BlobStorageEngine } from './uploads/blob-storage.engine';
import { SourcesService } from './sources/sources.service';
import { SourceArchivesService } from './sources/source-archives.service';
import { SyncRunsService } from './sources/sync-runs.service';
import { SyncSchedulesService } from './sources/sync-schedules.service';
import { WebhookVerificationService } from './sources/webhook-verification.service';
import { SyncRunHealthService } from './sources/sync-run-health.service';
import { SyncRunUpdates } from './sources/sync-run-updates';
import { SourceWebhookController } from './webhooks/source-webhook.controller';
import { WebhookRefusals } from './webhooks/webhook-refusals';
import { SourceWebhookService } from './webhooks/source-webhook.service';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsCollectors } from './metrics/metrics-collectors';
import { tracingClientInterceptors } from '@trove/tracing';
import { TracingShutdown } from './core/tracing-shutdown';

/** Wires config-built clients and the feature modules; no business logic lives here. */
@Module({})
export class AppModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const prefix = config.elasticsearch.indexPrefix;
    const graphqlLogger = new Logger('GraphQL');
    const tokenCounter = new SegmenterTokenCounter();
    const blobs = new LocalBlobStore(config.storage.blobDir);
    const protection = graphqlProtection(config.graphql);
    // The same limits for operations over WebSocket, which do not go through Apollo.
    const subscriptionGate = new SubscriptionGate(
      config.subscriptions ?? subscriptionLimitsSchema.parse({}),
      protection,
    );
    return {
      module: AppModule,
      imports: [
        // JSON lines (or pretty on a terminal): one per request, with its id and trace id.
        LoggerModule.forRoot(apiLogging(config)),
        DiscoveryModule,
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          path: GRAPHQL_PATH,
          autoSchemaFile: true,
          sortSchema: true,
          // A subscription over WebSocket has no request: its key comes in the connection parameters.
          context: ({ req, connectionParams }: GraphqlContext): GraphqlContext => ({ req, connectionParams }),
          // Live updates (syncRunUpdates) over graphql-ws on the same path, subscriptions only: the
          // key is checked on connect and again for every operation, with the limits of HTTP.
          subscriptions: {
            'graphql-ws': {
              path: GRAPHQL_PATH,
              onConnect: subscriptionGate.onConnect,
              // graphql-ws options @nestjs/graphql passes on, though its type leaves them out.
              ...({
                onSubscribe: subscriptionGate.onSubscribe,
                onNext: subscriptionGate.onNext,
                onError: subscriptionGate.onError,
                onComplete: subscriptionGate.onComplete,
                onClose: subscriptionGate.onClose,
              } as object),
            },
          },
          // Behind the API key (see graphqlAuthentication) and the limits; TROVE_INTROSPECTION.
          introspection: config.ui?.introspection ?? true,
          // No landing page at /graphql: GraphiQL is served, bundled, at /playground (web/web-pages.ts).
          playground: false,
          ...protection,
          // Clients get the message and a stable code; never a stack trace or internals.
          includeStacktraceInErrorResponses: false,
          formatError: (formatted, error) =>
            formatGraphqlError(formatted, error, (line) => graphqlLogger.warn(line)),
        }),
        MulterModule.register({
          // Files stream into the blob store, never into memory; every part of the form is bounded.
          storage: new BlobStorageEngine(blobs, config.api.maxUploadBytes),
          limits: {
            fileSize: config.api.maxUploadBytes,
            files: 1,
            fields: config.api.uploadMaxFields,
            fieldSize: config.api.uploadMaxFieldBytes,
            fieldNameSize: 100,
            parts: config.api.uploadMaxFields + 1,
          },
          // File names in Russian or Chinese arrive as UTF-8, not Latin-1.
          defParamCharset: 'utf8',
        } as object),
      ],
      controllers: [
        AskController,
        DocumentsController,
        OriginalsController,
        ArchivesController,
        HealthController,
        McpController,
        SourceWebhookController,
        MetricsController,
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        // Every source type's definition; an incomplete registry stops the api at start-up.
        { provide: SOURCE_DEFINITIONS, useValue: createSourceDefinitions(config) },
        TracingShutdown,
        {
          provide: SubscriptionGate,
          // The schema exists once GraphQLModule has built it; the gate reads it per operation.
          useFactory: (admission: RequestAdmission, schemas: GraphQLSchemaHost) => {
            subscriptionGate.attach({
              admission,
              schema: () => schemas.schema,
              log: (line) => graphqlLogger.warn(line),
            });
            return subscriptionGate;
          },
          inject: [RequestAdmission, GraphQLSchemaHost],
        },
        { provide: ELASTICSEARCH, useFactory: () => createElasticsearchClient(config.elasticsearch.url) },
        {
          provide: IndexGenerations,
          useFactory: (es: ElasticsearchClient, catalog: Catalog) =>
            new IndexGenerations({
              es,
              catalog,
              indexPrefix: prefix,
              replicas: config.elasticsearch.replicas,
              embedding: config.embedding,
              secrets: config.secrets.key ? new SecretBox(config.secrets.key) : undefined,
              ttlMs: config.elasticsearch.generationsTtlMs,
              log: (message) => new Logger('IndexGenerations').warn(message),
            }),
          inject: [ELASTICSEARCH, Catalog],
        },
        // The ACTIVE index generation's model, whichever it is when a call is made.
        {
          provide: EMBEDDER,
          useFactory: (generations: IndexGenerations) =>
            activeEmbedder(generations, createEmbeddingProvider(config.embedding)),
          inject: [IndexGenerations],
        },
        { provide: BLOBS, useValue: blobs },
        {
          provide: TEMPORAL,
          useFactory: () =>
            new TemporalClient({
              connection: Connection.lazy({ address: config.temporal.address }),
              namespace: config.temporal.namespace,
              // Workflows started here continue the request's trace (when tracing is on).
              interceptors: tracingClientInterceptors(),
            }),
        },
        {
          provide: Catalog,
          useFactory: (es: ElasticsearchClient) =>
            Catalog.open({
              ...config.database,
              legacy: { es, indexPrefix: prefix },
              sourceTypes: registeredSourceTypes(config),
            }),
          inject: [ELASTICSEARCH],
        },
        {
          provide: ChunkIndex,
          useFactory: (es: ElasticsearchClient, embedder: EmbeddingProvider) =>
            new ChunkIndex(es, prefix, embedder.dimensions, { replicas: config.elasticsearch.replicas }),
          inject: [ELASTICSEARCH, EMBEDDER],
        },
        // Retrieval and answer settings: the environment's, overlaid with changes made through the API.
        {
          provide: RagConfigStore,
          useFactory: (catalog: Catalog) =>
            new RagConfigStore({
              catalog,
              defaults: ragDefaults(config),
              secrets: config.secrets.key ? new SecretBox(config.secrets.key) : undefined,
              ttlMs: config.elasticsearch.generationsTtlMs,
              log: (message) => new Logger('RagConfig').warn(message),
            }),
          inject: [Catalog],
        },
        {
          provide: RagRuntime,
          useFactory: (
            store: RagConfigStore,
            es: ElasticsearchClient,
            embedder: EmbeddingProvider,
            generations: IndexGenerations,
            links: CitationLinks,
          ) => new RagRuntime({ store, es, embedder, generations, links, tokenCounter, config }),
          inject: [RagConfigStore, ELASTICSEARCH, EMBEDDER, IndexGenerations, CitationLinks],
        },
        // Search and answers follow the current settings (RagRuntime rebuilds them on a change).
        {
          provide: HybridSearch,
          useFactory: (runtime: RagRuntime) => runtime.searcher,
          inject: [RagRuntime],
        },
        { provide: Answerer, useFactory: (runtime: RagRuntime) => runtime.asker, inject: [RagRuntime] },
        RagConfigService,
        // Access (issue 12): who is calling, what the operation needs, which projects it reaches.
        ApiKeyAuthenticator,
        RequestRateLimit,
        RequestAdmission,
        ProjectAccess,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: ProjectScopeInterceptor },
        AccessRegistryCheck,
        ApiKeysService,
        CitationLinks,
        { provide: APP_FILTER, useClass: TroveExceptionFilter },
        { provide: APP_PIPE, useClass: TroveIdPipe },
        IndexBootstrapService,
        IndexGenerationsService,
        ProjectsService,
        DocumentsService,
        ChunksService,
        SearchService,
        AskService,
        SourcesService,
        SourceArchivesService,
        SyncRunsService,
        SyncSchedulesService,
        WebhookVerificationService,
        // Every resolver, from the one list the printed schema (schema.ts) is built from too.
        ...RESOLVERS,
        SyncRunUpdates,
        SyncRunHealthService,
        SourceWebhookService,
        WebhookRefusals,
        MetricsCollectors,
      ],
    };
  }
}
