import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import { ChunkIndex } from '@trove/search';

/** Creates the indices at start-up, waiting up to a minute for Elasticsearch to come up. */
@Injectable()
export class IndexBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Elasticsearch');

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(ChunkIndex) private readonly chunks: ChunkIndex,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await this.catalog.ensure();
        await this.chunks.ensure();
        return;
      } catch (error) {
        const permanent = (error as { permanent?: boolean }).permanent;
        if (permanent || Date.now() > deadline) throw error;
        this.logger.warn(`${(error as Error).message}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }
}
