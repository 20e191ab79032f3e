import { Inject, Injectable } from '@nestjs/common';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { guardedWrite, type SourceRecords, type WriteChecks } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { type Source, syncScheduleId, TroveError, TroveErrorCode } from '@trove/domain';
import { SOURCE_RECORDS, WRITE_CHECKS } from '../core/catalog.providers';
import { CONFIG, WORKFLOWS } from '../core/tokens';
import { scheduledStart, type WorkflowSchedules } from '../core/workflows';

/** Periodic syncs: one Temporal Schedule per source. */
@Injectable()
export class SyncSchedulesService {
  constructor(
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveSource'>,
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'requireSource' | 'updateSource'>,
    @Inject(WORKFLOWS) private readonly schedules: WorkflowSchedules,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  /** Sets (minutes > 0) or removes (0) the periodic INCREMENTAL sync of a source. */
  async set(sourceId: string, minutes: number): Promise<Source> {
    await this.writeChecks.requireActiveSource(sourceId);
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 7 * 24 * 60) {
      throw new TroveError(TroveErrorCode.BadRequest, 'the interval must be 0 (off) to 10080 minutes');
    }
    const scheduleId = syncScheduleId(sourceId);
    await this.schedules.deleteSchedule(scheduleId);
    if (minutes > 0) {
      // Raced a deletion that may have removed schedules already: take this one back out.
      await guardedWrite(
        this.writeChecks,
        { sourceId },
        () =>
          this.schedules.createSchedule({
            scheduleId,
            spec: { intervals: [{ every: `${minutes}m` }] },
            action: scheduledStart('scheduledSync', {
              args: [sourceId],
              taskQueue: this.config.temporal.taskQueue,
            }),
            policies: { overlap: ScheduleOverlapPolicy.SKIP },
          }),
        () => this.schedules.deleteSchedule(scheduleId),
      );
    }
    await this.sources.updateSource(sourceId, { syncIntervalMinutes: minutes || null });
    return this.sources.requireSource(sourceId);
  }

  /** Starts the scheduled sync now (what the schedule does at each interval). */
  async trigger(sourceId: string): Promise<boolean> {
    await this.writeChecks.requireActiveSource(sourceId);
    await this.schedules.triggerSchedule(syncScheduleId(sourceId));
    return true;
  }
}
