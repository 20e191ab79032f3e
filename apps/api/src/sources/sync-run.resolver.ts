import { Inject } from '@nestjs/common';
import { Float, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { type SyncRun, syncRate, SyncRunStatus } from '@trove/domain';
import { SyncProgressModel, SyncRunHealthModel, SyncRunModel } from './source.model';
import { type SyncRunHealth, SyncRunHealthService } from './sync-run-health.service';

/** A run as queried, or as followed (then with the health its follower last saw). */
export type SyncRunView = SyncRun & { health?: SyncRunHealth };

/** What a run shows beyond its record: planned and done pages, its current rate and ETA, its health. */
@Resolver(() => SyncRunModel)
export class SyncRunResolver {
  constructor(@Inject(SyncRunHealthService) private readonly healthService: SyncRunHealthService) {}

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
