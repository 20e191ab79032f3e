import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { CatalogLifecycle } from '@trove/catalog';
import { IndexGenerations } from '@trove/index-generations';
import { CATALOG_LIFECYCLE } from './catalog.providers';

/**
 * Migrates the catalog and creates the chunk index (its active generation) at start-up, waiting up to a minute for
 * PostgreSQL and Elasticsearch to come up; closes the catalog's connections at shutdown.
 */
@Injectable()
export class IndexBootstrapService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Storage');

  constructor(
    @Inject(CATALOG_LIFECYCLE) private readonly lifecycle: Pick<CatalogLifecycle, 'ensure' | 'close'>,
    @Inject(IndexGenerations) private readonly generations: IndexGenerations,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await this.lifecycle.ensure();
        // The chunk index's ACTIVE generation (recorded on first start), its index and alias.
        await this.generations.bootstrap();
        return;
      } catch (error) {
        const permanent = (error as { permanent?: boolean }).permanent;
        if (permanent || Date.now() > deadline) throw error;
        this.logger.warn(`${(error as Error).message}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.lifecycle.close();
  }
}
