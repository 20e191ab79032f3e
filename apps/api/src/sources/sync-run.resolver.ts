import { Inject } from '@nestjs/common';
import {
  Args,
  Float,
  ID,
  Int,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
  Subscription,
} from '@nestjs/graphql';
import {
  AuditAction,
  Permission,
  type Principal,
  type SyncRun,
  syncRate,
  SyncMode,
  SyncRunStatus,
} from '@trove/domain';
import { CurrentPrincipal, Requires, source, syncRun } from '../access/access.decorators';
import { PrincipalConfirmation } from '../access/principal-confirmation';
import { PageArgs } from '../core/connection.model';
import { SyncProgressModel, SyncRunConnection, SyncRunHealthModel, SyncRunModel } from './source.model';
import { type SyncRunHealth, SyncRunHealthService } from './sync-run-health.service';
import { SyncRunUpdates } from './sync-run-updates';
import { SyncRunsService } from './sync-runs.service';

/** A run as queried, or as followed (then with the health its follower last saw). */
export type SyncRunView = SyncRun & { health?: SyncRunHealth };

/**
 * Sync runs: starting one, reading and following them, and what a run shows beyond its record
 * (planned and done pages, its current rate and ETA, its health).
 */
@Resolver(() => SyncRunModel)
export class SyncRunResolver {
  constructor(
    @Inject(SyncRunsService) private readonly runs: SyncRunsService,
    @Inject(SyncRunUpdates) private readonly updates: SyncRunUpdates,
    @Inject(PrincipalConfirmation) private readonly confirmation: PrincipalConfirmation,
    @Inject(SyncRunHealthService) private readonly healthService: SyncRunHealthService,
  ) {}

  @Mutation(() => SyncRunModel)
  @Requires(Permission.WRITE, source('id'), { audit: AuditAction.SyncStarted })
  syncSource(
    @Args('id', { type: () => ID }) id: string,
    @Args('mode', { type: () => SyncMode, defaultValue: SyncMode.INCREMENTAL }) mode: SyncMode,
  ) {
    return this.runs.sync(id, mode);
  }

  @Mutation(() => SyncRunModel, {
    description:
      'Stops a running sync: the pages ingested so far stay, the next sync ingests the rest. The run ends CANCELLED.',
  })
  @Requires(Permission.WRITE, syncRun('id'), { audit: AuditAction.SyncCancelled })
  cancelSyncRun(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() principal: Principal) {
    return this.runs.cancel(id, principal.name);
  }

  @Query(() => SyncRunConnection, { description: "A source's sync runs, newest first, a page at a time" })
  @Requires(Permission.READ, source('sourceId'))
  syncRuns(@Args('sourceId', { type: () => ID }) sourceId: string, @Args() page: PageArgs) {
    return this.runs.runs(sourceId, page);
  }

  @Query(() => SyncRunModel, { nullable: true })
  @Requires(Permission.READ, syncRun('id', { nullable: true }))
  syncRun(@Args('id', { type: () => ID }) id: string) {
    return this.runs.run(id);
  }

  @Subscription(() => SyncRunModel, {
    description:
      'A sync run each time its status or progress changes (over graphql-ws, at /graphql); ends after the run does',
    resolve: (run: unknown) => run,
  })
  @Requires(Permission.READ, syncRun('id'))
  syncRunUpdates(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() principal: Principal) {
    // A subscription outlives the check of its start: a key revoked, a person deactivated or
    // removed from the project meanwhile ends it.
    return this.updates.follow(id, {
      confirm: () => this.confirmation.confirm(principal, { kind: 'syncRun', id }, Permission.READ),
    });
  }

  @ResolveField(() => SyncProgressModel)
  progress(@Parent() run: SyncRunView): SyncProgressModel {
    return { ...run.progress, pagesPlanned: run.pagesPlanned, pagesDone: pagesDone(run) };
  }

  @ResolveField(() => Float, {
    nullable: true,
    description: 'Running runs: pages done per second over the last minute (not since the start)',
  })
  pagesPerSecond(@Parent() run: SyncRunView): number | null {
    return current(run)?.pagesPerSecond ?? null;
  }

  @ResolveField(() => Int, {
    nullable: true,
    description:
      'Running runs: seconds until the planned pages are done at the current rate; null while unknown',
  })
  etaSeconds(@Parent() run: SyncRunView): number | null {
    return current(run)?.etaSeconds ?? null;
  }

  @ResolveField(() => SyncRunHealthModel, {
    description: 'OK, or STALLED with the reason Temporal gives (running runs only; ended runs are OK)',
  })
  async health(@Parent() run: SyncRunView): Promise<SyncRunHealthModel> {
    return run.health ?? (await this.healthService.of(run));
  }
}

function pagesDone(run: SyncRun): number {
  const sampled = run.recentProgress?.at(-1)?.pages ?? 0;
  return Math.max(sampled, run.progress.pagesIngested + run.progress.pagesFailed);
}

function current(run: SyncRun) {
  if (run.status !== SyncRunStatus.RUNNING) return undefined;
  return syncRate(run.recentProgress, Date.now(), run.pagesPlanned);
}
