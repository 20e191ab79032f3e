import { Inject, Injectable } from '@nestjs/common';
import {
  type AnswerRecords,
  Catalog,
  type DocumentRecords,
  type ProjectReads,
  type SourceRecords,
  type SyncRunRecords,
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
import type { TargetKind } from './access.decorators';

/** The catalog as access checks read it: each kind of record by id, for its project. */
export type RecordLookup = Pick<ProjectReads, 'getProject'> &
  Pick<DocumentRecords, 'getDocument'> &
  Pick<SourceRecords, 'getSource'> &
  Pick<SyncRunRecords, 'getRun'> &
  Pick<AnswerRecords, 'getThread' | 'answerProject'>;

/** `<document id>-<position>-<hash>`: the document is what a chunk belongs to. */
const CHUNK_DOCUMENT = /^(.+)-\d{1,9}-[0-9a-f]{12}$/i;

/**
 * Which project a record belongs to, and whether a principal reaches it. A record out of the
 * principal's scope is reported exactly as a missing one, so existence never leaks.
 */
@Injectable()
export class ProjectAccess {
  constructor(@Inject(Catalog) private readonly catalog: RecordLookup) {}

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
        return (await this.catalog.getProject(id))?.id;
      case 'document':
        return (await this.catalog.getDocument(id))?.projectId;
      case 'source':
        return (await this.catalog.getSource(id))?.projectId;
      case 'syncRun':
        return (await this.catalog.getRun(id))?.projectId;
      case 'thread':
        return (await this.catalog.getThread(id))?.projectId;
      case 'answer':
        return this.catalog.answerProject(id);
      case 'chunk': {
        const documentId = CHUNK_DOCUMENT.exec(id)?.[1];
        return documentId ? (await this.catalog.getDocument(documentId))?.projectId : undefined;
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
