import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { MulterModule } from '@nestjs/platform-express';
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { createCoreServices } from '@trove/composition';
import { type ApiConfig, subscriptionLimitsSchema } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { activeEmbedder, IndexGenerations } from '@trove/index-generations';
import { ChunkIndex } from '@trove/search';
import { createSourceDefinitions, registeredSourceTypes } from '@trove/source-definitions';
import { createBlobStore } from '@trove/storage';
import { tracingClientInterceptors } from '@trove/tracing';
import { LoggerModule } from 'nestjs-pino';
import { AccessModule } from '../access/access.module';
import { RequestAdmission } from '../access/request-admission';
import type { GraphqlContext } from '../access/request-principal';
import { BlobStorageEngine } from '../uploads/blob-storage.engine';
import { catalogProviders } from './catalog.providers';
import { CitationLinks } from './citation-links';
import { GRAPHQL_PATH } from './graphql-authentication';
import { formatGraphqlError, graphqlProtection } from './graphql-limits';
import { SubscriptionGate } from './graphql-subscriptions';
import { IndexBootstrapService } from './index-bootstrap.service';
import { apiLogging } from './request-logging';
import { TemporalWorkflows } from './temporal-workflows';
import {
  BLOBS,
  CONFIG,
  CORE_SERVICES,
  ELASTICSEARCH,
  EMBEDDER,
  SECRETS,
  SOURCE_DEFINITIONS,
  WORKFLOWS,
} from './tokens';
import { TracingShutdown } from './tracing-shutdown';
import { TroveExceptionFilter } from './trove-exception.filter';
import { TroveIdPipe } from './trove-id.pipe';

/**
 * What every feature module uses, built once from config: the catalog, Elasticsearch and the chunk
 * index, Temporal, embeddings, blob storage, access, the exception filter and the GraphQL and
 * upload set-up. Global, so feature modules list only their own resolvers, routes and services.
 */
@Module({})
export class CoreModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const prefix = config.elasticsearch.indexPrefix;
    // The catalog, Elasticsearch, the secret box, index generations and the RAG settings store,
    // built as the worker builds them (@trove/composition).
    const core = createCoreServices(config, {
      sourceTypes: registeredSourceTypes(config),
      log: (service) => (message) => new Logger(service).warn(message),
    });
    // Each catalog port its own provider, bound to the repository that implements it.
    const catalog = catalogProviders(core.catalog);
    const graphqlLogger = new Logger('GraphQL');
    const blobs = createBlobStore(config.storage);
    const protection = graphqlProtection(config.graphql);
    // The same limits for operations over WebSocket, which do not go through Apollo.
    const subscriptionGate = new SubscriptionGate(
      config.subscriptions ?? subscriptionLimitsSchema.parse({}),
      protection,
    );
    const uploads = MulterModule.register({
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
    } as object);
    const graphql = GraphQLModule.forRoot<ApolloDriverConfig>({
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
    });
    return {
      module: CoreModule,
      global: true,
      imports: [
        // JSON lines (or pretty on a terminal): one per request, with its id and trace id.
        LoggerModule.forRoot(apiLogging(config)),
        graphql,
        uploads,
        AccessModule,
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        // Every source type's definition; an incomplete registry stops the api at start-up.
        {
          provide: SOURCE_DEFINITIONS,
          useValue: createSourceDefinitions({ folders: config.folders, secrets: core.secrets }),
        },
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
        { provide: CORE_SERVICES, useValue: core },
        { provide: ELASTICSEARCH, useValue: core.es },
        { provide: IndexGenerations, useValue: core.generations },
        // The ACTIVE index generation's model, whichever it is when a call is made.
        {
          provide: EMBEDDER,
          useFactory: (generations: IndexGenerations) =>
            activeEmbedder(generations, createEmbeddingProvider(config.embedding)),
          inject: [IndexGenerations],
        },
        { provide: BLOBS, useValue: blobs },
        {
          provide: WORKFLOWS,
          useFactory: () =>
            new TemporalWorkflows(
              new TemporalClient({
                connection: Connection.lazy({ address: config.temporal.address }),
                namespace: config.temporal.namespace,
                // Workflows started here continue the request's trace (when tracing is on).
                interceptors: tracingClientInterceptors(),
              }),
            ),
        },
        ...catalog,
        // Seals and opens stored secrets: the composition root's one SecretBox, undefined
        // without TROVE_SECRET_KEY.
        { provide: SECRETS, useFactory: () => core.secrets },
        {
          provide: ChunkIndex,
          useFactory: (es: ElasticsearchClient, embedder: EmbeddingProvider) =>
            new ChunkIndex(es, prefix, embedder.dimensions, { replicas: config.elasticsearch.replicas }),
          inject: [ELASTICSEARCH, EMBEDDER],
        },
        CitationLinks,
        { provide: APP_FILTER, useClass: TroveExceptionFilter },
        { provide: APP_PIPE, useClass: TroveIdPipe },
        IndexBootstrapService,
      ],
      exports: [
        CONFIG,
        CORE_SERVICES,
        SOURCE_DEFINITIONS,
        ELASTICSEARCH,
        IndexGenerations,
        EMBEDDER,
        BLOBS,
        WORKFLOWS,
        SECRETS,
        ...catalog,
        ChunkIndex,
        CitationLinks,
        uploads,
        graphql,
        AccessModule,
      ],
    };
  }
}
