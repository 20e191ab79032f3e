import { Inject, Injectable, Logger } from '@nestjs/common';
import { WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import {
  type DocumentFilter,
  type DocumentRecords,
  encodeCursor,
  guardedWrite,
  newDocumentId,
  type PageRequest,
  type ProjectDocuments,
  type ProjectReads,
  type WriteChecks,
} from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import type { BlobStore, StoredStream, TroveDocument } from '@trove/domain';
import {
  blobKeys,
  DEFAULT_DOCUMENT_LIMITS,
  documentOverLimit,
  DocumentStatus,
  ingestPriority,
  ingestWorkflowId,
  TroveError,
  uploadsWorkflowId,
  TroveErrorCode,
  type IngestDocumentInput,
  type IngestLane,
} from '@trove/domain';
import { detectMediaType } from '@trove/parsing/formats';
import { ChunkIndex } from '@trove/search';
import { DOCUMENT_RECORDS, PROJECT_DOCUMENTS, PROJECT_READS, WRITE_CHECKS } from '../core/catalog.providers';
import { toConnection } from '../core/connection.model';
import { BLOBS, CONFIG, WORKFLOWS } from '../core/tokens';
import type { WorkflowControl, WorkflowStarts } from '../core/workflows';
import { normalizeFileName } from '../uploads/file-name';

/** An upload already streamed to a staging blob; `upload` moves it into place or removes it. */
export interface UploadedFile extends StoredStream {
  fileName: string;
  blobKey: string;
}

@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveProject'>,
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'requireProject'>,
    @Inject(PROJECT_DOCUMENTS) private readonly documents: ProjectDocuments,
    @Inject(DOCUMENT_RECORDS)
    private readonly documentRecords: Pick<DocumentRecords, 'getDocument' | 'updateDocument'>,
    @Inject(ChunkIndex) private readonly chunks: ChunkIndex,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(WORKFLOWS) private readonly workflows: WorkflowStarts & WorkflowControl,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  /**
   * Stores the original, records the document as PENDING and wakes the project's upload ingest.
   * If that cannot be done, the record and file are removed again so a retry is clean.
   */
  async upload(projectId: string, file: UploadedFile): Promise<TroveDocument> {
    try {
      return await this.store(projectId, file);
    } finally {
      await this.blobs.deletePrefix(file.blobKey); // gone already unless refused
    }
  }

  private async store(projectId: string, file: UploadedFile): Promise<TroveDocument> {
    await this.writeChecks.requireActiveProject(projectId);
    const fileName = normalizeFileName(file.fileName);
    // Every document is held to the document size limit, whatever its source: an upload over it
    // is refused now rather than failed by the worker.
    const { maxBytes } = this.config.documents ?? DEFAULT_DOCUMENT_LIMITS;
    if (file.sizeBytes > maxBytes) throw documentOverLimit('maxBytes', fileName, file.sizeBytes, maxBytes);
    const { mediaType } = detectMediaType(fileName, {
      head: file.head,
      tail: file.tail,
      size: file.sizeBytes,
    });
    // The id is fresh for every upload, so an old link never reaches a newer file of the same name.
    const id = newDocumentId();
    // An upload that raced the start of the project's deletion (checked above, stored below) is
    // taken back out, so the deletion, which may have listed the documents already, misses nothing.
    return guardedWrite(
      this.writeChecks,
      { projectId },
      () => this.record(id, projectId, fileName, mediaType, file),
      (document) => this.delete(document.id),
    );
  }

  /**
   * Moves the original into place, records the document as PENDING and wakes the project's upload
   * ingest; what was done is undone when a step fails, so a retry is clean.
   */
  private async record(
    id: string,
    projectId: string,
    fileName: string,
    mediaType: string,
    file: UploadedFile,
  ): Promise<TroveDocument> {
    const blobKey = blobKeys.upload(id, randomUUID());
    await this.blobs.move(file.blobKey, blobKey);
    let document: TroveDocument;
    try {
      document = await this.documents.createDocument({
        id,
        projectId,
        fileName,
        mediaType,
        sizeBytes: file.sizeBytes,
        contentHash: file.sha256,
        blobKey,
      });
    } catch (error) {
      await this.blobs.deletePrefix(blobKeys.originals(id));
      throw error;
    }
    try {
      await this.queueUpload(projectId);
    } catch (error) {
      await this.documents.deleteDocument(document.id);
      await this.blobs.deletePrefix(blobKeys.originals(document.id));
      throw error;
    }
    return document;
  }

  /** A page of the project's documents; an unknown project is PROJECT_NOT_FOUND, not an empty page. */
  async page(projectId: string, filter: DocumentFilter, page: PageRequest) {
    await this.projects.requireProject(projectId);
    const result = await this.documents.pageDocuments(projectId, filter, page);
    return toConnection(result, (d) => encodeCursor(new Date(d.createdAt), d.id));
  }

  get(id: string): Promise<TroveDocument | undefined> {
    return this.documentRecords.getDocument(id);
  }

  /** Re-runs the pipeline on the stored original; a run in progress is replaced. */
  async reindex(id: string): Promise<TroveDocument> {
    const document = await this.documents.requireDocument(id);
    await this.writeChecks.requireActiveProject(document.projectId);
    await this.documentRecords.updateDocument(id, { status: DocumentStatus.PENDING, error: null });
    // Asked for this one document: the interactive lane, never behind an import.
    await this.startIngest(id, document.projectId, 'interactive');
    return this.documents.requireDocument(id);
  }

  async delete(id: string): Promise<boolean> {
    await this.documents.requireDocument(id);
    await this.stopIngest(id);
    await this.documents.deleteDocument(id);
    await this.chunks.deleteDocumentChunks(id);
    await this.blobs.deletePrefix(blobKeys.originals(id));
    await this.blobs.deletePrefix(blobKeys.work(id));
    return true;
  }

  /**
   * Wakes the project's upload ingest (starting it if it is not running), which takes the new
   * PENDING record from the catalog and ingests it with others in batches.
   */
  private async queueUpload(projectId: string): Promise<void> {
    try {
      await this.workflows.signalWithStart('ingestUploads', 'uploaded', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: uploadsWorkflowId(projectId),
        args: [{ projectId }],
        signalArgs: [],
        priority: ingestPriority(projectId),
      });
    } catch (error) {
      this.logger.warn(`could not queue an upload to ${projectId}: ${(error as Error).message}`);
      throw temporalUnavailable(error);
    }
  }

  private async startIngest(documentId: string, projectId: string, lane: IngestLane = 'bulk'): Promise<void> {
    const input: IngestDocumentInput = { documentId, lane };
    try {
      await this.workflows.start('ingestDocument', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: ingestWorkflowId(documentId),
        args: [input],
        priority: ingestPriority(projectId),
        // One ingest per document at a time; a newer request replaces a running one.
        workflowIdConflictPolicy: 'TERMINATE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (error) {
      this.logger.warn(`could not start the ingest of ${documentId}: ${(error as Error).message}`);
      throw temporalUnavailable(error);
    }
  }

  private async stopIngest(documentId: string): Promise<void> {
    try {
      await this.workflows.terminate(ingestWorkflowId(documentId), 'document deleted');
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return; // not running: nothing to stop
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        'the workflow service (Temporal) is unavailable',
        {
          cause: error,
        },
      );
    }
  }
}

function temporalUnavailable(cause: unknown): TroveError {
  return new TroveError(
    TroveErrorCode.ServiceUnavailable,
    'the workflow service (Temporal) is unavailable; nothing was stored, try again',
    { cause },
  );
}
