import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { CatalogRepositories } from '@trove/catalog';
import { deleteProjectWorkflowId, DocumentStatus, ingestWorkflowId } from '@trove/domain';
import { LocalBlobStore } from '@trove/storage';
import { projectNamed, storeDocument } from '@trove/tools-support';
import { deleteProject, ingestDocument } from '@trove/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaneWorkers } from '../../../apps/worker/src/lanes';
import { createWorker } from '../../../apps/worker/src/worker';
import { dropTestData, uniqueName, workerConfig } from '../../support/services';

// An eval-style project (files put in by the tools' storeDocument, ingested by the real worker on
// the local services) is deleted by the product's own deleteProject workflow, and nothing of its
// files stays in blob storage: the originals live under the documents' keys (blobKeys).
const name = uniqueName('eval-deletion');
const config = workerConfig(name);
let worker: LaneWorkers;
let running: Promise<void>;
let catalog: CatalogRepositories;
let connection: Connection;
let client: Client;
const blobs = new LocalBlobStore(config.storage.blobDir);

/** Every file in the worker's blob folder, relative to it. */
function storedFiles(): string[] {
  return readdirSync(config.storage.blobDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(config.storage.blobDir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  ({ worker, catalog } = await createWorker(config));
  running = worker.run();
  connection = await Connection.connect({ address: config.temporal.address });
  client = new Client({ connection });
}, 240_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await catalog?.lifecycle.close();
  await dropTestData(name);
});

describe('an eval project, deleted', () => {
  it('leaves no original (nor any other file) behind', async () => {
    const project = await projectNamed(catalog.projects, `eval ${name}`);
    const files = [
      {
        fileName: '101.md',
        data: Buffer.from('# Herons\n\nThe grey heron fishes at the old pier at dawn.\n'),
      },
      { fileName: '102.md', data: Buffer.from('# Cranes\n\nCommon cranes cross the marsh in autumn.\n') },
    ];
    for (const file of files) {
      const record = await storeDocument({ documents: catalog.documents, blobs }, project.id, file);
      await client.workflow.execute(ingestDocument, {
        taskQueue: config.temporal.taskQueue,
        workflowId: ingestWorkflowId(record.id),
        args: [{ documentId: record.id }],
      });
    }
    const documents = (await catalog.documents.pageDocuments(project.id, {}, { first: 10 })).items;
    expect(documents.map((d) => [d.fileName, d.status]).sort()).toEqual([
      ['101.md', DocumentStatus.READY],
      ['102.md', DocumentStatus.READY],
    ]);
    expect(storedFiles().filter((f) => f.startsWith('originals/'))).toHaveLength(2);

    await client.workflow.execute(deleteProject, {
      taskQueue: config.temporal.taskQueue,
      workflowId: deleteProjectWorkflowId(project.id),
      args: [project.id],
    });
    expect(await catalog.projects.getProject(project.id)).toBeUndefined();
    expect(storedFiles()).toEqual([]);
  }, 300_000);
});
