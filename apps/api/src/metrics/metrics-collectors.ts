import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import { collectCatalogPool, collectProcessMetrics, collectSyncRuns, stopCollectors } from '@trove/metrics';

/**
 * What the api reads when scraped: sync runs by state and the oldest running one's age (one
 * catalog query per few seconds at most, however many scrapers), and its connection pool.
 */
@Injectable()
export class MetricsCollectors implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(Catalog) private readonly catalog: Catalog) {}

  onModuleInit(): void {
    collectProcessMetrics();
    collectSyncRuns(() => this.catalog.runs.stats());
    collectCatalogPool(() => this.catalog.poolUsage());
  }

  onModuleDestroy(): void {
    stopCollectors(['syncRuns', 'catalogPool']);
  }
}
