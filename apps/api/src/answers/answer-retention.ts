import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { AnswerRetention } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ANSWER_RETENTION } from '../core/catalog.providers';
import { CONFIG } from '../core/tokens';

const DAY_MS = 86_400_000;
/** How often old answers are looked for: retention is counted in days, an hour late is nothing. */
export const ANSWER_PURGE_INTERVAL_MS = 3_600_000;

/**
 * Applies TROVE_ANSWER_RETENTION_DAYS: at start-up and every hour, threads unused for longer
 * (with their turns) and older answers outside threads are deleted. Every api instance runs it;
 * the deletes are idempotent, so several at once only repeat each other's work.
 */
@Injectable()
export class AnswerRetentionPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AnswerRetention');
  private readonly retentionDays: number;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(ANSWER_RETENTION) private readonly answers: AnswerRetention,
    @Inject(CONFIG) config: Pick<ApiConfig, 'answerRecords'>,
  ) {
    this.retentionDays = config.answerRecords?.retentionDays ?? 90;
  }

  onApplicationBootstrap(): void {
    if (this.retentionDays === 0) return;
    void this.purge();
    this.timer = setInterval(() => void this.purge(), ANSWER_PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes what is older than the retention allows; a failure is logged and tried again next time. */
  async purge(now = Date.now()): Promise<{ threads: number; answers: number } | undefined> {
    if (this.retentionDays === 0) return undefined;
    try {
      const removed = await this.answers.deleteAnswersBefore(new Date(now - this.retentionDays * DAY_MS));
      if (removed.threads + removed.answers > 0) {
        this.logger.log(
          `removed ${removed.threads} thread(s) and ${removed.answers} answer(s) older than ${this.retentionDays} days`,
        );
      }
      return removed;
    } catch (error) {
      this.logger.warn(`removing old answers failed: ${(error as Error).message}`);
      return undefined;
    }
  }
}
