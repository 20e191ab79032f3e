import { createHash } from 'node:crypto';
import { newDocumentId, type ProjectDocuments, type ProjectRecords } from '@trove/catalog';
import { blobKeys, type BlobStore, type Project, ProjectStatus, type TroveDocument } from '@trove/domain';
import { detectMediaType } from '@trove/parsing';

/** What storing a document needs of the catalog. */
export type DocumentCreation = Pick<ProjectDocuments, 'createDocument'>;

export interface OriginalFile {
  fileName: string;
  data: Buffer;
}

/**
 * How the benchmarks and evals put a file into a project without the api: the document recorded
 * PENDING (as an upload is) with its original stored under the document's own key
 * (`blobKeys.original`), so deleting the document or its project removes the file with it. The
 * caller then ingests it (the `ingestDocument` workflow, or a signal to `ingestUploads`).
 * A record that cannot be made takes its stored original back out.
 */
export async function storeDocument(
  deps: { documents: DocumentCreation; blobs: Pick<BlobStore, 'put' | 'deletePrefix'> },
  projectId: string,
  file: OriginalFile,
): Promise<TroveDocument> {
  const id = newDocumentId();
  const contentHash = createHash('sha256').update(file.data).digest('hex');
  const blobKey = blobKeys.original(id, contentHash);
  await deps.blobs.put(blobKey, file.data);
  try {
    return await deps.documents.createDocument({
      id,
      projectId,
      fileName: file.fileName,
      mediaType: detectMediaType(file.fileName, file.data).mediaType,
      sizeBytes: file.data.length,
      contentHash,
      blobKey,
    });
  } catch (error) {
    await deps.blobs.deletePrefix(blobKeys.originals(id));
    throw error;
  }
}

/** The ACTIVE project of that name, created when there is none (a persistent eval project is reused). */
export async function projectNamed(
  projects: Pick<ProjectRecords, 'listProjects' | 'createProject'>,
  name: string,
): Promise<Project> {
  const existing = (await projects.listProjects()).find(
    (p) => p.name === name && p.status === ProjectStatus.ACTIVE,
  );
  return existing ?? (await projects.createProject(name));
}
