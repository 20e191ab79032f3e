import type { UploadCursor, UploadQueue, WriteChecks } from '@trove/catalog';
import { activity } from './activity-failure';
import { assertWritable } from './write-guards';
import type { IngestUnits } from './ingest-batch.activities';

/** A page of a project's PENDING uploads, with the worker's settings for ingesting them. */
export interface UploadsPage {
  ids: string[];
  /** Where the next page starts; absent when this one is empty. */
  after?: UploadCursor;
  /** Batches (or single documents) ingested at once, and how they are cut. */
  units: IngestUnits;
}

/**
 * The catalog side of `ingestUploads`: which uploads of a project are waiting for ingest. Batch
 * sizes and concurrency are the worker's settings, handed to the workflow with each page (as a
 * sync's plan carries them).
 */
export function createUploadActivities(deps: {
  documents: UploadQueue;
  writeChecks: WriteChecks;
  units: IngestUnits;
}) {
  const { documents, writeChecks, units } = deps;
  return {
    /** The next `limit` PENDING uploads after `after`; refused once the project is being deleted. */
    async pendingUploads(input: {
      projectId: string;
      after?: UploadCursor;
      limit: number;
    }): Promise<UploadsPage> {
      return activity(async () => {
        await assertWritable(writeChecks, { projectId: input.projectId });
        const page = await documents.pendingUploads(input.projectId, input.after, input.limit);
        return { ...page, units };
      });
    },
  };
}

export type UploadActivities = ReturnType<typeof createUploadActivities>;
