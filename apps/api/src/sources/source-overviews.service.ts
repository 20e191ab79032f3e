import { Inject, Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import type { DocumentCounts, SyncRunHistory } from '@trove/catalog';
import type { SyncRun } from '@trove/domain';
import { DOCUMENT_COUNTS, SYNC_RUN_HISTORY } from '../core/catalog.providers';

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

  constructor(
    @Inject(SYNC_RUN_HISTORY) private readonly runs: Pick<SyncRunHistory, 'latestRuns'>,
    @Inject(DOCUMENT_COUNTS) private readonly documents: Pick<DocumentCounts, 'countBySource'>,
  ) {}

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
          const runs = await this.runs.latestRuns(ids);
          return ids.map((id) => runs.get(id));
        }),
        documentCount: new DataLoader(async (ids) => {
          const counts = await this.documents.countBySource(ids);
          return ids.map((id) => counts.get(id) ?? 0);
        }),
      };
      this.loaders.set(context, loaders);
    }
    return loaders;
  }
}
