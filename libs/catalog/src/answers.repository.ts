import { sql, type Selectable, type Transaction } from 'kysely';
import {
  type AnswerRecord,
  isAnswerId,
  isThreadId,
  isTroveId,
  newAnswerId,
  newThreadId,
  notFoundError,
  ProjectStatus,
  type Thread,
} from '@trove/domain';
import type { CatalogDb } from './database';
import { query } from './database-error';
import { decodeCursor, pageSize, toPage, type Page, type PageRequest } from './cursor';
import type { AnswersTable, CatalogTables, ThreadsTable } from './tables';
import { jsonb } from './postgres-text';
import type {
  AnswerFilter,
  AnswerRecords,
  AnswerRetention,
  NewAnswer,
  NewThread,
  ThreadScope,
  WriteChecks,
} from './catalog.ports';
import { projectDeleting } from './source-lock';

/** Kysely's view of a thread row with its turn count. */
type ThreadRow = Selectable<ThreadsTable> & { turn_count: number | string };

/**
 * Answers and the threads they form. Writes are guarded in the statement itself: an answer or a
 * thread is inserted only while its project is ACTIVE (`insert … select … where status = 'ACTIVE'`),
 * so nothing is added once a deletion has marked the project; what was added before goes with it
 * (foreign keys cascade). A refused write throws the reason the project gives.
 */
export class AnswerRepository implements AnswerRecords, AnswerRetention {
  constructor(
    private readonly db: CatalogDb,
    /** Why a guarded insert wrote nothing: the project is missing or being deleted. */
    private readonly checks: Pick<WriteChecks, 'requireActiveProject'>,
  ) {}

  /** Creates an empty thread; PROJECT_NOT_FOUND or PROJECT_DELETING when the project takes no writes. */
  async createThread(thread: NewThread): Promise<Thread> {
    const created = await query('creating a thread', () =>
      this.db.transaction().execute(async (tx) => {
        const id = await insertThread(tx, thread);
        return id ? threadById(tx, id) : undefined;
      }),
    );
    return created ?? this.refusedWrite(thread.projectId);
  }

  async getThread(id: string): Promise<Thread | undefined> {
    if (!isThreadId(id)) return undefined;
    return query('reading a thread', () => threadById(this.db, id));
  }

  /** A page of a project's threads, most recently used first. */
  async listThreads(projectId: string, scope: ThreadScope, request: PageRequest = {}): Promise<Page<Thread>> {
    const size = pageSize(request.first);
    let base = this.db.selectFrom('threads').where('project_id', '=', projectId);
    if (scope !== 'ALL') {
      if (scope.userId !== undefined) base = base.where('user_id', '=', scope.userId);
      else {
        base = base.where('user_id', 'is', null);
        base =
          scope.apiKeyId === undefined
            ? base.where('api_key_id', 'is', null)
            : base.where('api_key_id', '=', scope.apiKeyId);
      }
    }
    let rows = base
      .selectAll()
      .select(turnCount)
      .select(cursorTime('updated_at'))
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1);
    if (request.after) {
      const { at, id } = decodeCursor(request.after);
      rows = rows.where(sql<boolean>`(updated_at, id) < (${at}::timestamptz, ${id})`);
    }
    const [items, count] = await query('listing threads', () =>
      Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]),
    );
    return toPage(items, count, size, (row) => row.cursor_at, toThread);
  }

  /** Renames the thread; undefined when it does not exist. */
  async renameThread(id: string, title: string): Promise<Thread | undefined> {
    if (!isThreadId(id)) return undefined;
    return query('renaming a thread', async () => {
      const updated = await this.db
        .updateTable('threads')
        .set({ title, updated_at: sql<string>`now()` })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0 ? threadById(this.db, id) : undefined;
    });
  }

  /** Deletes the thread with its turns; false when it did not exist. */
  async deleteThread(id: string): Promise<boolean> {
    if (!isThreadId(id)) return false;
    const result = await query('deleting a thread', () =>
      this.db.deleteFrom('threads').where('id', '=', id).executeTakeFirst(),
    );
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Records an answer and returns its id; a turn of a thread gets the thread's next position (the
   * thread row is locked meanwhile, so two follow-ups at once get 2 and 3) and moves the thread
   * to the top of its list. THREAD_NOT_FOUND when the thread is gone or belongs to another
   * project; PROJECT_NOT_FOUND or PROJECT_DELETING when the project takes no writes (nothing is
   * written).
   */
  async recordAnswer(answer: NewAnswer): Promise<string> {
    const recorded = await this.insertAnswer(answer);
    return recorded ?? this.refusedWrite(answer.projectId);
  }

  private async insertAnswer(answer: NewAnswer): Promise<string | undefined> {
    const id = answer.id ?? newAnswerId();
    return query('recording an answer', () =>
      this.db.transaction().execute(async (tx) => {
        let threadId: string | null = null;
        let position: number | null = null;
        if (answer.thread && 'new' in answer.thread) {
          const created = await insertThread(tx, {
            ...answer.thread.new,
            projectId: answer.projectId,
            apiKeyId: answer.apiKeyId,
            userId: answer.userId,
          });
          if (!created) return undefined;
          [threadId, position] = [created, 1];
        } else if (answer.thread) {
          threadId = answer.thread.id;
          position = await nextTurn(tx, answer.projectId, threadId);
        }
        const inserted = await sql<{ id: string }>`
          insert into answers (id, project_id, thread_id, position, api_key_id, user_id, question,
                               standalone_question, mode, answer, citations, hits)
          select ${id}, p.id, ${threadId}::text, ${position}::integer, ${answer.apiKeyId ?? null}::text,
                 ${answer.userId ?? null}::text,
                 ${answer.question}, ${answer.standaloneQuestion ?? null}::text, ${answer.mode},
                 ${answer.answer}, ${jsonb(answer.citations)}::jsonb, ${jsonb(answer.hits)}::jsonb
          from projects p where p.id = ${answer.projectId} and p.status = ${ProjectStatus.ACTIVE}
          returning id`.execute(tx);
        return inserted.rows[0]?.id;
      }),
    );
  }

  /** An answer of the project; undefined when there is none (or it is another project's). */
  async getAnswer(projectId: string, id: string): Promise<AnswerRecord | undefined> {
    if (!isAnswerId(id)) return undefined;
    const row = await query('reading an answer', () =>
      this.db
        .selectFrom('answers')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .executeTakeFirst(),
    );
    return row && toAnswer(row);
  }

  /** The project an answer belongs to (access checks); undefined when there is no such answer. */
  async answerProject(id: string): Promise<string | undefined> {
    if (!isAnswerId(id)) return undefined;
    const row = await query('reading an answer', () =>
      this.db.selectFrom('answers').select('project_id').where('id', '=', id).executeTakeFirst(),
    );
    return row?.project_id;
  }

  /** A thread's turns, in order. */
  async threadTurns(threadId: string): Promise<AnswerRecord[]> {
    if (!isThreadId(threadId)) return [];
    const rows = await query('reading a thread', () =>
      this.db
        .selectFrom('answers')
        .selectAll()
        .where('thread_id', '=', threadId)
        .orderBy('position')
        .execute(),
    );
    return rows.map(toAnswer);
  }

  /** A page of a project's answers, newest first. */
  async listAnswers(
    projectId: string,
    filter: AnswerFilter = {},
    request: PageRequest = {},
  ): Promise<Page<AnswerRecord>> {
    const size = pageSize(request.first);
    let base = this.db.selectFrom('answers').where('project_id', '=', projectId);
    if (filter.mode !== undefined) base = base.where('mode', '=', filter.mode);
    if (filter.since !== undefined) base = base.where('created_at', '>=', filter.since);
    let rows = base
      .selectAll()
      .select(cursorTime('created_at'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1);
    if (request.after) {
      const { at, id } = decodeCursor(request.after);
      rows = rows.where(sql<boolean>`(created_at, id) < (${at}::timestamptz, ${id})`);
    }
    const [items, count] = await query('listing answers', () =>
      Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]),
    );
    return toPage(items, count, size, (row) => row.cursor_at, toAnswer);
  }

  /**
   * Retention: threads last used before `before` go with all their turns, and answers outside a
   * thread given before then. A thread still in use keeps its earlier turns (a follow-up needs them).
   */
  async deleteAnswersBefore(before: Date): Promise<{ threads: number; answers: number }> {
    return query('deleting old answers', async () => {
      const threads = await this.db.deleteFrom('threads').where('updated_at', '<', before).executeTakeFirst();
      const answers = await this.db
        .deleteFrom('answers')
        .where('thread_id', 'is', null)
        .where('created_at', '<', before)
        .executeTakeFirst();
      return { threads: Number(threads.numDeletedRows), answers: Number(answers.numDeletedRows) };
    });
  }

  /** Why a guarded insert wrote nothing: the project is missing or being deleted. */
  private async refusedWrite(projectId: string): Promise<never> {
    await this.checks.requireActiveProject(projectId);
    throw projectDeleting(projectId); // deleted between the insert and the check
  }
}

/**
 * A row's time as ISO text with PostgreSQL's microseconds, for its page cursor: a Date keeps only
 * milliseconds, and two rows of one millisecond would then compare wrongly with the cursor.
 */
const cursorTime = (column: 'created_at' | 'updated_at') =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
    'cursor_at',
  );

const turnCount = sql<string>`(select count(*) from answers a where a.thread_id = threads.id)`.as(
  'turn_count',
);

/** Inserts a thread while its project is ACTIVE; its id, or undefined when refused. */
async function insertThread(
  tx: Transaction<CatalogTables>,
  thread: Omit<NewThread, 'id'> & { id?: string },
): Promise<string | undefined> {
  if (!isTroveId(thread.projectId)) return undefined;
  const id = thread.id ?? newThreadId();
  const inserted = await sql<{ id: string }>`
    insert into threads (id, project_id, api_key_id, user_id, title)
    select ${id}, p.id, ${thread.apiKeyId ?? null}::text, ${thread.userId ?? null}::text, ${thread.title}
    from projects p where p.id = ${thread.projectId} and p.status = ${ProjectStatus.ACTIVE}
    returning id`.execute(tx);
  return inserted.rows[0]?.id;
}

/** The next position in a thread of the project, holding the thread's row until the transaction ends. */
async function nextTurn(
  tx: Transaction<CatalogTables>,
  projectId: string,
  threadId: string,
): Promise<number> {
  const thread = isThreadId(threadId)
    ? await tx
        .selectFrom('threads')
        .select('id')
        .where('id', '=', threadId)
        .where('project_id', '=', projectId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!thread) throw notFoundError('thread', threadId);
  const last = await tx
    .selectFrom('answers')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  await tx
    .updateTable('threads')
    .set({ updated_at: sql<string>`now()` })
    .where('id', '=', threadId)
    .execute();
  return Number(last?.last ?? 0) + 1;
}

async function threadById(db: CatalogDb, id: string): Promise<Thread | undefined> {
  const row = await db
    .selectFrom('threads')
    .selectAll()
    .select(turnCount)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toThread(row);
}

function toThread(row: ThreadRow): Thread {
  return {
    id: row.id,
    projectId: row.project_id,
    ...(row.api_key_id !== null && { apiKeyId: row.api_key_id }),
    ...(row.user_id !== null && { userId: row.user_id }),
    title: row.title,
    turnCount: Number(row.turn_count),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toAnswer(row: Selectable<AnswersTable>): AnswerRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    ...(row.thread_id !== null && { threadId: row.thread_id }),
    ...(row.position !== null && { position: row.position }),
    ...(row.api_key_id !== null && { apiKeyId: row.api_key_id }),
    ...(row.user_id !== null && { userId: row.user_id }),
    question: row.question,
    ...(row.standalone_question !== null && { standaloneQuestion: row.standalone_question }),
    mode: row.mode,
    answer: row.answer,
    citations: row.citations,
    hits: row.hits,
    createdAt: row.created_at.toISOString(),
  };
}
