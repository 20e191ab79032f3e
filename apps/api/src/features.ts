import { AnswersModule } from './answers/answers.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { PeopleModule } from './people/people.module';
import { DocumentsModule } from './documents/documents.module';
import { FeedbackModule } from './feedback/feedback.module';
import { HealthModule } from './health/health.module';
import { IndexGenerationsModule } from './index-generations/index-generations.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { ProjectsModule } from './projects/projects.module';
import { RagConfigModule } from './rag-config/rag-config.module';
import { SearchModule } from './search/search.module';
import { SourcesModule } from './sources/sources.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The API's features, one Nest module each (over the global CoreModule). */
export const FEATURE_MODULES = [
  ProjectsModule,
  DocumentsModule,
  SourcesModule,
  WebhooksModule,
  SearchModule,
  AnswersModule,
  FeedbackModule,
  RagConfigModule,
  IndexGenerationsModule,
  ApiKeysModule,
  AuthModule,
  PeopleModule,
  AuditModule,
  HealthModule,
  MetricsModule,
  McpModule,
];
