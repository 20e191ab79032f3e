import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from '../core/connection.model';
import { type ErrorCode, ErrorCodeEnum } from '../core/error-code.model';
import { JsonScalar } from '../core/json.scalar';
import { SourceStatus, SyncMode, SyncRunStatus, SyncStage } from '@trove/domain';
import { StallReason, SyncHealthState } from './sync-stall';

registerEnumType(SourceStatus, { name: 'SourceStatus' });
registerEnumType(SyncMode, { name: 'SyncMode' });
registerEnumType(SyncRunStatus, { name: 'SyncRunStatus' });
registerEnumType(SyncStage, {
  name: 'SyncStage',
  description:
    'PLANNING: discovering and diffing; INGESTING: the changed pages; FINISHING: recording the end',
});
registerEnumType(SyncHealthState, { name: 'SyncHealthState' });
registerEnumType(StallReason, { name: 'StallReason' });

@ObjectType('SourceWebhook', {
  description: "What a source's webhook has received (neither payloads nor signatures are kept)",
})
export class SourceWebhookModel {
  @Field(() => String, { nullable: true, description: 'When the last signed, fresh event arrived' })
  lastEventAt?: string;
  @Field(() => String, {
    nullable: true,
    description: "Its type as the sender names it, e.g. 'page.content_updated' or 'push'",
  })
  lastEventType?: string;
  @Field(() => Int, {
    description:
      'Deliveries refused so far: bad or missing signature, stale, malformed, or an unsolicited verification request',
  })
  rejectedDeliveries!: number;
}

@ObjectType('SourceSecret', { description: 'A secret of a source configuration, masked' })
export class SourceSecretModel {
  @Field({ description: 'The configuration field, e.g. token' }) field!: string;
  @Field({ description: 'First and last characters and the length' }) hint!: string;
}

@ObjectType('WebhookSetup', {
  description: "What an operator sets up so that a source type's webhook deliveries arrive",
})
export class WebhookSetupModel {
  @Field({ description: 'One sentence: what to set up where' }) instructions!: string;
  @Field({ description: "The path deliveries go to, '{sourceId}' standing for the source's id" })
  path!: string;
  @Field(() => [String], { description: 'The steps, in order' }) steps!: string[];
  @Field({
    description:
      'The first delivery is a handshake whose token (webhookVerificationToken) the operator pastes back into the sender',
  })
  verificationHandshake!: boolean;
}

@ObjectType('SourceTypeInfo', {
  description: 'A source type and the configuration addSource takes for it (to build forms from)',
})
export class SourceTypeModel {
  @Field(() => String, { description: 'The type, e.g. WEB: what addSource takes as `type`' })
  type!: string;
  @Field() label!: string;
  @Field() description!: string;
  @Field(() => JsonScalar, {
    description: 'JSON Schema (draft 2020-12) of `config`; secret fields are writeOnly',
  })
  configSchema!: Record<string, unknown>;
  @Field(() => [String], { description: 'Fields of config that are secrets: never returned, only hinted' })
  secretFields!: string[];
  @Field({ description: 'Whether the type receives webhook deliveries at /webhooks/<source id>' })
  webhook!: boolean;
  @Field(() => WebhookSetupModel, {
    nullable: true,
    description: 'What an operator sets up for webhook deliveries; null for types without webhooks',
  })
  webhookSetup!: WebhookSetupModel | null;
}

@ObjectType('Source', { description: 'A place Trove syncs documents from. Secrets are never returned.' })
export class SourceModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => String, { description: 'Its source type, one of those sourceTypes lists (e.g. NOTION, WEB)' })
  type!: string;
  @Field() name!: string;
  @Field(() => SourceStatus) status!: SourceStatus;
  @Field({ nullable: true }) watermark?: string;
  @Field({
    nullable: true,
    description: 'When the last successful sync finished (a failed or cancelled run leaves it as it was)',
  })
  lastSyncAt?: string;
  @Field(() => Int, { nullable: true, description: 'Minutes between scheduled INCREMENTAL syncs' })
  syncIntervalMinutes?: number;
  @Field() createdAt!: string;
}

@InputType({ description: 'A source of any type; `sourceTypes` gives the schema of each type’s config' })
export class AddSourceInput {
  @Field(() => ID) projectId!: string;
  @Field(() => String, {
    description:
      'One of the types sourceTypes lists (e.g. WEB); another is BAD_REQUEST naming the known ones',
  })
  type!: string;
  @Field() name!: string;
  @Field(() => JsonScalar, {
    description:
      "The type's configuration, validated by its schema (errors name the field); secrets as plain strings",
  })
  config!: unknown;
}

@InputType()
export class UpdateSourceInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'A new token (e.g. after the old one was revoked)' }) token?: string;
  @Field(() => JsonScalar, {
    nullable: true,
    description:
      'Configuration fields to change (null clears an optional one); fields and secrets left out keep their value',
  })
  config?: Record<string, unknown> | null;
}

@ObjectType('SyncProgress')
export class SyncProgressModel {
  @Field(() => Int) pagesSeen!: number;
  @Field(() => Int) pagesIngested!: number;
  @Field(() => Int) pagesUnchanged!: number;
  @Field(() => Int) pagesFailed!: number;
  @Field(() => Int) pagesDeleted!: number;
  @Field(() => Int) pagesSkipped!: number;
  @Field(() => Int, { description: 'Requests to the source system made by the discovery step' })
  apiCalls!: number;
  @Field(() => Int, { description: 'Chunks sent to the embedding model' }) chunksEmbedded!: number;
  @Field(() => Int, { description: 'Chunks whose stored vector was reused (content unchanged)' })
  chunksReused!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Pages the plan holds to ingest (the total pagesDone goes to); null while planning',
  })
  pagesPlanned?: number;
  @Field(() => Int, {
    description: 'Planned pages done so far: ingested, failed, gone or left to another ingest',
  })
  pagesDone!: number;
}

@ObjectType('SyncRunHealth', {
  description:
    'Whether a running sync moves. STALLED: its progress has not moved for TROVE_SYNC_STALL_SECONDS; the reason is what Temporal says. The run stays RUNNING and is OK again once it moves.',
})
export class SyncRunHealthModel {
  @Field(() => SyncHealthState) state!: SyncHealthState;
  @Field(() => StallReason, { nullable: true }) reason?: StallReason;
  @Field({ nullable: true, description: "The reason in words, e.g. the retrying activity's last error" })
  message?: string;
  @Field({ nullable: true, description: 'When the progress last moved (running runs)' }) since?: string;
}

@ObjectType('SkippedItem')
export class SkippedItemModel {
  @Field() id!: string;
  @Field() reason!: string;
  @Field({ nullable: true, description: "The item's title or path, when the source listing names it" })
  title?: string;
}

@ObjectType('SyncRunError')
export class SyncRunErrorModel {
  @Field(() => ErrorCodeEnum) code!: ErrorCode;
  @Field() message!: string;
}

@ObjectType('SyncRun')
export class SyncRunModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) sourceId!: string;
  @Field(() => SyncMode) mode!: SyncMode;
  @Field(() => SyncRunStatus) status!: SyncRunStatus;
  @Field() startedAt!: string;
  @Field({ nullable: true }) finishedAt?: string;
  @Field(() => SyncRunErrorModel, { nullable: true }) error?: SyncRunErrorModel;
  @Field(() => SyncProgressModel) progress!: SyncProgressModel;
  @Field(() => SyncStage, { nullable: true, description: 'Null on runs recorded before stages were' })
  stage?: SyncStage;
  @Field({ nullable: true, description: 'When the progress or stage last changed' }) progressAt?: string;
  @Field(() => [SkippedItemModel]) skipped!: SkippedItemModel[];
  @Field(() => [String], {
    nullable: true,
    description: 'What the source configuration asked for that could not be honoured',
  })
  warnings?: string[];
}

@ObjectType('SyncRunConnection')
export class SyncRunConnection extends Connection(SyncRunModel, 'SyncRun') {}
