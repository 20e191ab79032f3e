import type { ColumnType, Generated } from 'kysely';
import type {
  AnswerHit,
  AnswerRecordCitation,
  DocumentProgress,
  ProgressSample,
  ProjectSettings,
} from '@trove/domain';

/** Timestamps are written as ISO strings and read back as Dates. */
type Timestamp = ColumnType<Date, string, string>;
type NullableTimestamp = ColumnType<Date | null, string | null | undefined, string | null>;
type Json<T> = ColumnType<T, string, string>;

export interface ProjectsTable {
  id: string;
  name: string;
  /** The name as compared for uniqueness (case-folded): unique among ACTIVE projects. */
  name_key: string;
  status: string;
  created_at: Timestamp;
  /** Written by the database's default ('{}') on insert. */
  settings: ColumnType<ProjectSettings, never, string>;
}

export interface SourcesTable {
  id: string;
  project_id: string;
  type: string;
  name: string;
  status: string;
  /** The type's configuration, shaped by its source definition; secrets sealed. */
  config: Json<Record<string, unknown>>;
  webhook_token: string | null;
  webhook_verification_opened_at: NullableTimestamp;
  watermark: string | null;
  last_sync_at: NullableTimestamp;
  sync_interval_minutes: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Written only by WebhookDeliveryLog. */
  webhook_last_event_at: NullableTimestamp;
  webhook_last_event_type: string | null;
  webhook_rejected_count: Generated<number>;
}

export interface DocumentsTable {
  id: string;
  project_id: string;
  source_id: string | null;
  external_id: string | null;
  file_name: string;
  media_type: string;
  size_bytes: ColumnType<string, number, number>;
  content_hash: string;
  blob_key: string;
  title: string | null;
  language: string | null;
  status: string;
  error_code: string | null;
  error_message: string | null;
  chunk_count: number;
  timings: Json<Record<string, number>>;
  url: string | null;
  breadcrumb: Json<string[] | null> | null;
  /** Kept as the source's own string: syncs compare it for equality. */
  /** The item's version last fetched, as its connector defines it. */
  version: string | null;
  page_count: number | null;
  warnings: Json<string[] | null> | null;
  progress: Json<DocumentProgress | null> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  indexed_at: NullableTimestamp;
  /** Written only by the ingest lease (`claim`, `release` of DocumentRepository). */
  ingest_holder: string | null;
  ingest_lease_until: NullableTimestamp;
}

export interface SyncRunsTable {
  id: string;
  source_id: string;
  project_id: string;
  mode: string;
  check_deletions: boolean;
  status: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  error_code: string | null;
  error_message: string | null;
  pages_seen: number;
  pages_ingested: number;
  pages_unchanged: number;
  pages_failed: number;
  pages_deleted: number;
  pages_skipped: number;
  api_calls: number;
  chunks_embedded: number;
  chunks_reused: number;
  skipped: Json<{ id: string; reason: string }[]>;
  warnings: Json<string[]>;
  stage: string | null;
  pages_planned: number | null;
  progress_at: NullableTimestamp;
  recent_progress: ColumnType<ProgressSample[] | null, string | null | undefined, string | null>;
}

export interface WebhookEventsTable {
  source_id: string;
  event_id: string;
  received_at: Generated<Date>;
}

export interface IndexGenerationsTable {
  id: Generated<number>;
  index_name: string;
  status: string;
  embedding: Json<Record<string, unknown>>;
  api_key_sealed: string | null;
  model_id: string;
  dimensions: number;
  workflow_id: string | null;
  progress: ColumnType<Record<string, number>, string | undefined, string>;
  error: string | null;
  created_at: ColumnType<Date, string | undefined, string>;
  activated_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface RagConfigTable {
  id: ColumnType<number, number | undefined, never>;
  overrides: Json<Record<string, Record<string, unknown>>>;
  secrets: Json<Record<string, string>>;
  version: number;
  updated_at: ColumnType<Date, string | undefined, string>;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  role: string;
  /** Null: every project. */
  project_ids: string[] | null;
  secret_sha256: Buffer;
  created_by: string;
  created_at: ColumnType<Date, string | undefined, never>;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface ThreadsTable {
  id: string;
  project_id: string;
  /** Null: the bootstrap admin key, or a person (user_id). */
  api_key_id: string | null;
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  title: string;
  created_at: ColumnType<Date, string | undefined, never>;
  updated_at: ColumnType<Date, string | undefined, string>;
}

export interface AnswersTable {
  id: string;
  project_id: string;
  thread_id: string | null;
  /** The turn's number in its thread (from 1); null outside a thread. */
  position: number | null;
  api_key_id: string | null;
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  question: string;
  standalone_question: string | null;
  mode: string;
  answer: string;
  citations: Json<AnswerRecordCitation[]>;
  hits: Json<AnswerHit[]>;
  created_at: ColumnType<Date, string | undefined, never>;
}

export interface FeedbackTable {
  id: string;
  answer_id: string;
  project_id: string;
  /** Null: the bootstrap admin key, or a person (user_id). */
  api_key_id: string | null;
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  target: string;
  chunk_id: string | null;
  vote: number;
  comment: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CatalogTables {
  projects: ProjectsTable;
  sources: SourcesTable;
  documents: DocumentsTable;
  sync_runs: SyncRunsTable;
  webhook_events: WebhookEventsTable;
  index_generations: IndexGenerationsTable;
  rag_config: RagConfigTable;
  api_keys: ApiKeysTable;
  threads: ThreadsTable;
  answers: AnswersTable;
  feedback: FeedbackTable;
  users: UsersTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  project_grants: ProjectGrantsTable;
  sessions: SessionsTable;
  personal_tokens: PersonalTokensTable;
  login_transactions: LoginTransactionsTable;
  audit_events: AuditEventsTable;
  query_counts: QueryCountsTable;
}

type CreatedAt = ColumnType<Date, string | undefined, never>;

export interface UsersTable {
  id: string;
  provider: string | null;
  issuer: string | null;
  subject: string | null;
  email: string | null;
  name: string;
  picture_url: string | null;
  role: string | null;
  status: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  last_seen_at: NullableTimestamp;
  deactivated_at: NullableTimestamp;
}

export interface GroupsTable {
  id: string;
  name: string;
  provider: string | null;
  created_at: CreatedAt;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  added_at: CreatedAt;
}

export interface ProjectGrantsTable {
  id: string;
  project_id: string;
  user_id: string | null;
  group_id: string | null;
  role: string;
  created_by: string;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  provider: string;
  secret_sha256: Buffer;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: ColumnType<Date, string | undefined, string>;
  revalidate_at: Timestamp;
  revoked_at: NullableTimestamp;
  refresh_token_sealed: string | null;
  id_token_sealed: string | null;
  address: string | null;
  user_agent: string | null;
}

export interface PersonalTokensTable {
  id: string;
  user_id: string;
  name: string;
  secret_sha256: Buffer;
  created_at: CreatedAt;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface LoginTransactionsTable {
  id: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  binding_sha256: Buffer;
  created_at: CreatedAt;
  consumed_at: NullableTimestamp;
}

export interface AuditEventsTable {
  /** bigint identity, read as a number by the INT8 parser; kept as text in the contract. */
  id: Generated<number>;
  at: ColumnType<Date, never, never>;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string;
  credential: string | null;
  credential_id: string | null;
  address: string | null;
  user_agent: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  project_id: string | null;
  outcome: string;
  code: string | null;
  detail: ColumnType<Record<string, unknown> | null, string | null, never>;
}

export interface QueryCountsTable {
  day: ColumnType<Date, string, string>;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  project_id: string;
  searches: ColumnType<number, number | undefined, number>;
  asks: ColumnType<number, number | undefined, number>;
}
