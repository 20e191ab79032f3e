import { proxyActivities } from '@temporalio/workflow';
import type { DeletionActivities } from '@trove/ingest-activities';

/**
 * A deletion must finish once begun: transient faults (Elasticsearch, Temporal or the disk
 * briefly unavailable) are retried until the service is back.
 */
const untilDone = proxyActivities<DeletionActivities>({
  startToCloseTimeout: '1h',
  // Stopping and purging heartbeat per batch; a crashed worker's step moves on within 2 minutes.
  heartbeatTimeout: '2m',
  scheduleToCloseTimeout: '7d',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * Deletes a project as one durable operation: mark it DELETING (every write is refused from
 * then on) → stop its schedules, syncs, webhook workflows and ingests and wait until they are
 * closed → remove chunks, files, archives, unpacked caches and records → remove the project.
 * Started with the project's own workflow id, so asking twice joins the running deletion.
 */
export async function deleteProject(projectId: string): Promise<void> {
  await untilDone.markProjectDeleting({ projectId });
  await untilDone.stopProjectWork({ projectId });
  await untilDone.purgeProjectData({ projectId });
  await untilDone.deleteProjectRecord({ projectId });
}

/** Removes a source and everything it produced, in the same steps as deleteProject. */
export async function removeSource(sourceId: string): Promise<void> {
  await untilDone.markSourceRemoving({ sourceId });
  await untilDone.stopSourceWork({ sourceId });
  await untilDone.purgeSourceData({ sourceId });
}
