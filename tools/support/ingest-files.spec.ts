import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobKeys, DocumentStatus, type TroveDocument, TroveError, TroveErrorCode } from '@trove/domain';
import { LocalBlobStore } from '@trove/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentCreation, storeDocument } from './ingest-files';

/** Records documents in memory; refuses a second document of the same name, as the catalog does. */
class RecordsFake implements DocumentCreation {
  readonly documents: TroveDocument[] = [];

  async createDocument(input: Parameters<DocumentCreation['createDocument']>[0]): Promise<TroveDocument> {
    if (this.documents.some((d) => d.projectId === input.projectId && d.fileName === input.fileName))
      throw new TroveError(TroveErrorCode.DocumentNameConflict, `"${input.fileName}" exists`);
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id: input.id ?? randomUUID(),
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    this.documents.push(document);
    return document;
  }
}

let dir: string;
let blobs: LocalBlobStore;
const files = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-files-'));
  blobs = new LocalBlobStore(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('storeDocument (how benchmarks and evals put a file into a project)', () => {
  it('keeps the original under the document, so what a project deletion removes per document is all of it', async () => {
    const catalog = new RecordsFake();
    const data = Buffer.from('# Heron\n\nThe heron fishes at the pier.\n');
    const record = await storeDocument({ documents: catalog, blobs }, 'p1', { fileName: 'heron.md', data });

    expect(record).toMatchObject({ projectId: 'p1', fileName: 'heron.md', mediaType: 'text/markdown' });
    expect(record.sizeBytes).toBe(data.length);
    expect(record.blobKey.startsWith(`${blobKeys.originals(record.id)}/`)).toBe(true);
    expect(await blobs.get(record.blobKey)).toEqual(data);

    // The deletion activities remove blobKeys.originals(id) of every document of the project.
    await blobs.deletePrefix(blobKeys.originals(record.id));
    expect(files()).toEqual([]);
  });

  it('takes the stored original back out when the record cannot be made', async () => {
    const catalog = new RecordsFake();
    const file = { fileName: 'twice.md', data: Buffer.from('# Twice\n') };
    await storeDocument({ documents: catalog, blobs }, 'p1', file);
    await expect(storeDocument({ documents: catalog, blobs }, 'p1', file)).rejects.toMatchObject({
      code: TroveErrorCode.DocumentNameConflict,
    });
    expect(files()).toHaveLength(1);
  });
});
