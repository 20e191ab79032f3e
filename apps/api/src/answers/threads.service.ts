import { Inject, Injectable } from '@nestjs/common';
import type { PriorTurn } from '@trove/answering';
import {
  type AnswerRecords,
  encodeCursor,
  type NewAnswer,
  type PageRequest,
  type ProjectReads,
} from '@trove/catalog';
import {
  ApiKeyRole,
  type AnswerRecord,
  newThreadId,
  notFoundError,
  ownedBy,
  ownerOf,
  type Principal,
  roleIn,
  type Thread,
  threadTitle,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { ANSWER_RECORDS, PROJECT_READS } from '../core/catalog.providers';
import { toConnection } from '../core/connection.model';
import { CitationLinks } from '../core/citation-links';
import { assertWellFormedQuery } from '../search/query-text';
import type { ThreadTurnModel } from './thread.model';

/** Longest title a rename may give. */
const MAX_TITLE_CHARS = 200;

/** How a question names its thread (GraphQL `AskInput`, the stream's body). */
export interface ThreadChoice {
  threadId?: string | null;
  newThread?: boolean | null;
}

/** What an answer needs from its thread: the earlier turns, and where it is recorded. */
export interface QuestionThread {
  threadId?: string;
  history?: PriorTurn[];
  record?: NewAnswer['thread'];
}

/**
 * A thread is its owner's: a person (whichever session or token they use) or a key sees,
 * continues, renames and deletes only the threads they started, and anyone else's thread is
 * THREAD_NOT_FOUND, as if it did not exist. ADMINs of the thread's project reach every thread of
 * it, and may list them all.
 */
export function reachesThread(
  principal: Principal,
  thread: Pick<Thread, 'apiKeyId' | 'userId' | 'projectId'>,
): boolean {
  return roleIn(principal, thread.projectId) === ApiKeyRole.ADMIN || ownedBy(thread, principal);
}

/** Conversation threads as the API serves them, each checked against the caller's key. */
@Injectable()
export class ThreadsService {
  constructor(
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'requireProject'>,
    @Inject(ANSWER_RECORDS)
    private readonly answers: Pick<
      AnswerRecords,
      'getThread' | 'listThreads' | 'renameThread' | 'deleteThread' | 'threadTurns'
    >,
    @Inject(CitationLinks) private readonly links: Pick<CitationLinks, 'absolute'>,
  ) {}

  /** A page of the project's threads, most recently used first: the caller's own, or (ADMIN) every key's. */
  async list(principal: Principal, projectId: string, page: PageRequest, allKeys = false) {
    if (allKeys && roleIn(principal, projectId) !== ApiKeyRole.ADMIN) {
      throw new TroveError(TroveErrorCode.Forbidden, "only the project's ADMINs may list everyone's threads");
    }
    await this.projects.requireProject(projectId);
    const scope = allKeys ? 'ALL' : ownerOf(principal);
    const result = await this.answers.listThreads(projectId, scope, page);
    return toConnection(result, (t) => encodeCursor(new Date(t.updatedAt), t.id));
  }

  /** The thread, when the caller reaches it; undefined otherwise. */
  async get(principal: Principal, id: string): Promise<Thread | undefined> {
    const thread = await this.answers.getThread(id);
    return thread && reachesThread(principal, thread) ? thread : undefined;
  }

  /** The thread, or THREAD_NOT_FOUND (also for a thread of another key or project). */
  async require(principal: Principal, id: string, projectId?: string): Promise<Thread> {
    const thread = await this.get(principal, id);
    if (!thread || (projectId !== undefined && thread.projectId !== projectId)) {
      throw notFoundError('thread', id);
    }
    return thread;
  }

  async rename(principal: Principal, id: string, title: string): Promise<Thread> {
    const name = title.replace(/\s+/g, ' ').trim();
    assertWellFormedQuery(name, 'the title');
    if (!name || name.length > MAX_TITLE_CHARS) {
      throw new TroveError(TroveErrorCode.BadRequest, `a thread title is 1 to ${MAX_TITLE_CHARS} characters`);
    }
    await this.require(principal, id);
    const renamed = await this.answers.renameThread(id, name);
    if (!renamed) throw notFoundError('thread', id);
    return renamed;
  }

  /** Deletes the thread and its turns; THREAD_NOT_FOUND when the caller does not reach it. */
  async delete(principal: Principal, id: string): Promise<boolean> {
    await this.require(principal, id);
    if (!(await this.answers.deleteThread(id))) throw notFoundError('thread', id);
    return true;
  }

  /** The thread's turns as served: links to originals signed afresh. */
  async turns(threadId: string): Promise<ThreadTurnModel[]> {
    const turns = await this.answers.threadTurns(threadId);
    return turns.map((turn) => this.turn(turn));
  }

  /**
   * The thread a question is asked in: an existing one (the caller's, in this project) with its
   * earlier turns, a new one titled by the question, or none.
   */
  async forQuestion(
    principal: Principal,
    projectId: string,
    choice: ThreadChoice,
    question: string,
  ): Promise<QuestionThread> {
    if (choice.threadId && choice.newThread) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'ask with threadId (continue a thread) or newThread, not both',
      );
    }
    if (choice.newThread) {
      const id = newThreadId();
      return { threadId: id, history: [], record: { new: { id, title: threadTitle(question) } } };
    }
    if (!choice.threadId) return {};
    const thread = await this.require(principal, choice.threadId, projectId);
    const turns = await this.answers.threadTurns(thread.id);
    return {
      threadId: thread.id,
      history: turns.map((t) => ({
        question: t.question,
        standaloneQuestion: t.standaloneQuestion,
        answer: t.answer,
      })),
      record: { id: thread.id },
    };
  }

  private turn(record: AnswerRecord): ThreadTurnModel {
    return {
      answerId: record.id,
      position: record.position ?? 0,
      question: record.question,
      standaloneQuestion: record.standaloneQuestion,
      mode: record.mode,
      answer: record.answer,
      citations: record.citations.map((citation) => ({
        ...citation,
        citationUrl: this.links.absolute(citation.citationUrl ?? undefined),
      })),
      createdAt: record.createdAt,
    };
  }
}
