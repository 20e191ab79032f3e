import { Inject } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import {
  AuditAction,
  Permission,
  type Source,
  type SourceConfig,
  type SourceDefinitions,
  type SyncRun,
} from '@trove/domain';
import {
  AddSourceInput,
  SourceModel,
  SourceSecretModel,
  SourceTypeModel,
  SourceWebhookModel,
  SyncRunModel,
  UpdateSourceInput,
} from './source.model';
import type { GraphqlContext } from '../access/request-principal';
import { SourceOverviews } from './source-overviews.service';
import { JsonScalar } from '../core/json.scalar';
import { SOURCE_DEFINITIONS } from '../core/tokens';
import { SourcesService } from './sources.service';
import { SyncSchedulesService } from './sync-schedules.service';
import { WebhookVerificationService } from './webhook-verification.service';
import { project, Requires, source } from '../access/access.decorators';

@Resolver(() => SourceModel)
export class SourcesResolver {
  constructor(
    @Inject(SourcesService) private readonly service: SourcesService,
    @Inject(SyncSchedulesService) private readonly schedules: SyncSchedulesService,
    @Inject(WebhookVerificationService) private readonly webhooks: WebhookVerificationService,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
    @Inject(SourceOverviews) private readonly overviews: SourceOverviews,
  ) {}

  @Query(() => [SourceTypeModel], {
    description: 'Every source type with the JSON Schema of the config addSource takes for it',
  })
  @Requires(Permission.READ)
  sourceTypes(): SourceTypeModel[] {
    return this.definitions.describe();
  }

  @Query(() => [SourceModel])
  @Requires(Permission.READ, project('projectId'))
  sources(@Args('projectId', { type: () => ID }) projectId: string) {
    return this.service.list(projectId);
  }

  @ResolveField(() => JsonScalar, {
    description: "The type's configuration (see sourceTypes), without its secrets",
  })
  config(@Parent() parent: Source): SourceConfig {
    return this.definitions.publicConfig(parent.type, parent.config);
  }

  @ResolveField(() => String, {
    description: "What the source reads, in a few words (its type's summary of config), for listings",
  })
  summary(@Parent() parent: Source): string {
    return this.definitions.summary(parent.type, parent.config);
  }

  @ResolveField(() => [SourceSecretModel], { description: 'The secrets that are set, masked' })
  secrets(@Parent() parent: Source): SourceSecretModel[] {
    return this.definitions.secretHints(parent.type, parent.config);
  }

  @ResolveField(() => String, {
    nullable: true,
    description:
      'The token, masked: first and last characters and its length (secrets { hint } for any type)',
  })
  tokenHint(@Parent() parent: Source): string | null {
    return this.secrets(parent).find((secret) => secret.field === 'token')?.hint ?? null;
  }

  @ResolveField(() => SyncRunModel, {
    nullable: true,
    description:
      "The source's newest sync run (running or ended), with its health: what a listing shows as the source's state; null if never synced",
  })
  lastRun(@Parent() parent: Source, @Context() context: GraphqlContext): Promise<SyncRun | undefined> {
    return this.overviews.lastRun(context, parent.id);
  }

  @ResolveField(() => Int, { description: 'How many documents the source has produced (any status)' })
  documentCount(@Parent() parent: Source, @Context() context: GraphqlContext): Promise<number> {
    return this.overviews.documentCount(context, parent.id);
  }

  @ResolveField(() => SourceWebhookModel, {
    nullable: true,
    description:
      'Sources whose type receives webhooks: the last event received and the count of refused deliveries',
  })
  webhook(@Parent() parent: Source): SourceWebhookModel | null {
    if (!this.definitions.get(parent.type).webhook) return null;
    const deliveries = parent.webhookDeliveries;
    return {
      lastEventAt: deliveries?.lastEventAt,
      lastEventType: deliveries?.lastEventType,
      rejectedDeliveries: deliveries?.rejected ?? 0,
    };
  }

  @Mutation(() => SourceModel, {
    description:
      "A source of any type, its config validated by the type's schema (see sourceTypes; errors name the field). Sync it with syncSource.",
  })
  @Requires(Permission.WRITE, project('input.projectId'), { audit: AuditAction.SourceAdded })
  addSource(@Args('input') input: AddSourceInput) {
    return this.service.add(input);
  }

  @Mutation(() => SourceModel, {
    description:
      "Renames a source or changes its config (validated by its type's schema; secrets left out are kept)",
  })
  @Requires(Permission.WRITE, source('id'), { audit: AuditAction.SourceChanged })
  updateSource(@Args('id', { type: () => ID }) id: string, @Args('input') input: UpdateSourceInput) {
    return this.service.update(id, input);
  }

  @Mutation(() => Boolean, {
    description:
      'Removes the source with everything it produced (documents, chunks, files, archives, caches, schedule); returns when done.',
  })
  @Requires(Permission.WRITE, source('id'), { audit: AuditAction.SourceRemoved })
  removeSource(@Args('id', { type: () => ID }) id: string) {
    return this.service.remove(id);
  }

  @Mutation(() => SourceModel, { description: 'Periodic INCREMENTAL sync every N minutes; 0 turns it off.' })
  @Requires(Permission.WRITE, source('sourceId'), { audit: AuditAction.SourceChanged })
  setSyncSchedule(
    @Args('sourceId', { type: () => ID }) sourceId: string,
    @Args('intervalMinutes', { type: () => Int }) intervalMinutes: number,
  ) {
    return this.schedules.set(sourceId, intervalMinutes);
  }

  @Mutation(() => Boolean, { description: "Runs the source's scheduled sync now." })
  @Requires(Permission.WRITE, source('sourceId'), { audit: AuditAction.SyncStarted })
  triggerSyncSchedule(@Args('sourceId', { type: () => ID }) sourceId: string) {
    return this.schedules.trigger(sourceId);
  }

  @Query(() => String, {
    nullable: true,
    description:
      "The token of the webhook's verification handshake (types whose webhookSetup has verificationHandshake), to paste back into the sender",
  })
  @Requires(Permission.WRITE, source('sourceId'))
  webhookVerificationToken(@Args('sourceId', { type: () => ID }) sourceId: string) {
    return this.webhooks.token(sourceId);
  }

  @Mutation(() => Boolean, {
    description:
      "Forgets the webhook verification token, to accept a new subscription: the sender's verification request must arrive within TROVE_WEBHOOK_VERIFICATION_WINDOW_MS (1 hour by default).",
  })
  @Requires(Permission.WRITE, source('sourceId'), { audit: AuditAction.SourceChanged })
  resetWebhookVerification(@Args('sourceId', { type: () => ID }) sourceId: string) {
    return this.webhooks.reset(sourceId);
  }
}
