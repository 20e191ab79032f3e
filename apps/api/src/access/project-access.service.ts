import { Inject, Injectable } from '@nestjs/common';
import type {
  AnswerRecords,
  DocumentRecords,
  ProjectReads,
  SourceRecords,
  SyncRunRecords,
} from '@trove/catalog';
import {
  inProjectScope,
  isAnswerId,
  isChunkId,
  isThreadId,
  isTroveId,
  notFoundError,
  type Principal,
  type TroveError,
} from '@trove/domain';
import {
  ANSWER_RECORDS,
  DOCUMENT_RECORDS,
  PROJECT_READS,
  SOURCE_RECORDS,
  SYNC_RUN_RECORDS,
} from '../core/catalog.providers';
import type { TargetKind } from './access.decorators';

/** `<document id>-<position>-<hash>`: the document is what a chunk belongs to. */
const CHUNK_DOCUMENT = /^(.+)-\d{1,9}-[0-9a-f]{12}$/i;

/**
 * Which project a record belongs to, and whether a principal reaches it. A record out of the
 * principal's scope is reported exactly as a missing one, so existence never leaks.
 */
@Injectable()
export class ProjectAccess {
  // Each kind of record read by id, for its project.
  constructor(
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'getProject'>,
    @Inject(DOCUMENT_RECORDS) private readonly documents: Pick<DocumentRecords, 'getDocument'>,
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'getSource'>,
    @Inject(SYNC_RUN_RECORDS) private readonly runs: Pick<SyncRunRecords, 'getRun'>,
    @Inject(ANSWER_RECORDS) private readonly answers: Pick<AnswerRecords, 'getThread' | 'answerProject'>,
  ) {}

  /**
   * Whether the id has the shape of its kind. Malformed ids are left to the operation (a
   * BAD_REQUEST, the same for every caller), so they are not looked up here.
   */
  static wellFormed(kind: TargetKind, id: unknown): id is string {
    switch (kind) {
      case 'chunk':
        return isChunkId(id);
      case 'thread':
        return isThreadId(id);
      case 'answer':
        return isAnswerId(id);
      default:
        return isTroveId(id);
    }
  }

  /** The project of an existing record; undefined when there is no such record. */
  async projectOf(kind: TargetKind, id: string): Promise<string | undefined> {
    switch (kind) {
      case 'project':
        return (await this.projects.getProject(id))?.id;
      case 'document':
        return (await this.documents.getDocument(id))?.projectId;
      case 'source':
        return (await this.sources.getSource(id))?.projectId;
      case 'syncRun':
        return (await this.runs.getRun(id))?.projectId;
      case 'thread':
        return (await this.answers.getThread(id))?.projectId;
      case 'answer':
        return this.answers.answerProject(id);
      case 'chunk': {
        const documentId = CHUNK_DOCUMENT.exec(id)?.[1];
        return documentId ? (await this.documents.getDocument(documentId))?.projectId : undefined;
      }
      default: {
        const unknown: never = kind;
        throw new Error(`unknown access target ${String(unknown)}`);
      }
    }
  }

  /** Whether the principal reaches the record (false when it does not exist). */
  async reaches(principal: Principal, kind: TargetKind, id: string): Promise<boolean> {
    const projectId = await this.projectOf(kind, id);
    return projectId !== undefined && inProjectScope(principal, projectId);
  }
}

/**
 * What a missing (or out-of-scope) record of each kind answers when the operation is not
 * nullable: the catalog's own answer for a missing one. A chunk is named by its document.
 */
export function notFound(kind: TargetKind, id: string): TroveError {
  return notFoundError(kind === 'chunk' ? 'document' : kind, id);
}
