import { Inject, Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { Catalog } from '@trove/catalog';
import type { SyncRun } from '@trove/domain';

/** What the overviews read of the catalog. */
export interface SourceOverviewCatalog {
  runs: Pick<Catalog['runs'], 'latest'>;
  documents: Pick<Catalog['documents'], 'countBySource'>;
}

interface Loaders {
  lastRun: DataLoader<string, SyncRun | undefined>;
  documentCount: DataLoader<string, number>;
}

/**
 * What a listing shows of each source beyond its record (its newest run, its document count),
 * batched per GraphQL request: the cards of a project cost one grouped query per field, not one
 * per source. Loaders live as long as the request's context and cache nothing beyond it.
 */
@Injectable()
export class SourceOverviews {
  private readonly loaders = new WeakMap<object, Loaders>();

  constructor(@Inject(Catalog) private readonly catalog: SourceOverviewCatalog) {}

  lastRun(context: object, sourceId: string): Promise<SyncRun | undefined> {
    return this.of(context).lastRun.load(sourceId);
  }

  documentCount(context: object, sourceId: string): Promise<number> {
    return this.of(context).documentCount.load(sourceId);
  }

  private of(context: object): Loaders {
    let loaders = this.loaders.get(context);
    if (!loaders) {
      loaders = {
        lastRun: new DataLoader(async (ids) => {
          const runs = await this.catalog.runs.latest(ids);
          return ids.map((id) => runs.get(id));
        }),
        documentCount: new DataLoader(async (ids) => {
          const counts = await this.catalog.documents.countBySource(ids);
          return ids.map((id) => counts.get(id) ?? 0);
        }),
      };
      this.loaders.set(context, loaders);
    }
    return loaders;
  }
}
