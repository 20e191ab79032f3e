import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { CatalogPoolUsage, SyncRunStats } from '@trove/catalog';
import { collectCatalogPool, collectProcessMetrics, collectSyncRuns, stopCollectors } from '@trove/metrics';
import { CATALOG_POOL_USAGE, SYNC_RUN_STATS } from '../core/catalog.providers';

/**
 * What the api reads when scraped: sync runs by state and the oldest running one's age (one
 * catalog query per few seconds at most, however many scrapers), and its connection pool.
 */
@Injectable()
export class MetricsCollectors implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(SYNC_RUN_STATS) private readonly runs: SyncRunStats,
    @Inject(CATALOG_POOL_USAGE) private readonly pool: CatalogPoolUsage,
  ) {}

  onModuleInit(): void {
    collectProcessMetrics();
    collectSyncRuns(() => this.runs.runStats());
    collectCatalogPool(() => this.pool.poolUsage());
  }

  onModuleDestroy(): void {
    stopCollectors(['syncRuns', 'catalogPool']);
  }
}
