import type { AuditRepository } from '@trove/catalog';
import type { AuditConfig } from '@trove/config';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes audit entries (and query counts) older than TROVE_AUDIT_RETENTION_DAYS: a minute after
 * start (the catalog is migrated by then), then hourly. 0 keeps them for ever. Several api
 * instances purging at once do the same work twice and nothing more.
 */
export class AuditRetention {
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;

  constructor(
    private readonly store: Pick<AuditRepository, 'purgeBefore' | 'purgeCountsBefore'>,
    private readonly config: Pick<AuditConfig, 'retentionDays'>,
    private readonly log: (line: string) => void,
  ) {}

  start(intervalMs = 60 * 60 * 1000): void {
    if (this.config.retentionDays === 0) return;
    this.first = setTimeout(() => void this.purge(), 60_000);
    this.first.unref();
    this.timer = setInterval(() => void this.purge(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.first) clearTimeout(this.first);
    if (this.timer) clearInterval(this.timer);
  }

  /** One purge; the number of entries removed. */
  async purge(now = Date.now()): Promise<number> {
    if (this.config.retentionDays === 0) return 0;
    const before = new Date(now - this.config.retentionDays * DAY_MS);
    try {
      const removed = await this.store.purgeBefore(before);
      await this.store.purgeCountsBefore(before);
      if (removed > 0)
        this.log(`audit log: removed ${removed} entries older than ${this.config.retentionDays} days`);
      return removed;
    } catch (error) {
      this.log(`audit log retention failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
