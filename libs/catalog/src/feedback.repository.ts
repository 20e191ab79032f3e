import { sql, type Selectable } from 'kysely';
import {
  type ContentGap,
  type FeedbackRecord,
  type FeedbackTarget,
  type FeedbackVote,
  isAnswerId,
  newFeedbackId,
  notFoundError,
  type RecordOwner,
} from '@trove/domain';
import type { CatalogDb } from './database';
import { query } from './database-error';
import { decodeCursor, encodeCursor, pageSize, toPage, type Page, type PageRequest } from './cursor';
import type { FeedbackTable } from './tables';
import type { FeedbackRecords, FeedbackWithAnswer, NewFeedback, WriteChecks } from './catalog.ports';
import { guardedWrite } from './guarded-write';

/**
 * `normalizeQuestion` (@trove/domain) of what an answer searched, in SQL: content gaps are grouped
 * by it. The catalog integration test checks that both give the same keys.
 */
const QUESTION_KEY = sql<string>`btrim(regexp_replace(regexp_replace(lower(normalize(coalesce(a.standalone_question, a.question), NFKC)), '\\s+', ' ', 'g'), '[\\s?.!]+$', ''))`;

/**
 * Votes on answers and their passages. One vote per (answer, key, target, passage): voting again
 * replaces the vote and its comment. Votes go with their answer (foreign key, cascading).
 */
export class FeedbackRepository implements FeedbackRecords {
  constructor(
    private readonly db: CatalogDb,
    /** A vote is refused like every write once its project is being deleted. */
    private readonly checks: Pick<WriteChecks, 'requireActiveProject'>,
  ) {}

  /**
   * Records a vote on an answer of the project (replacing the key's earlier vote on the same
   * answer and passage). Refused like every write once the project is being deleted; an answer
   * of another project is ANSWER_NOT_FOUND.
   */
  async recordFeedback(vote: NewFeedback): Promise<FeedbackRecord> {
    await this.checks.requireActiveProject(vote.projectId);
    const recorded = await guardedWrite(
      this.checks,
      { projectId: vote.projectId },
      () => this.record(vote),
      (written) => (written ? this.delete(written.id) : Promise.resolve()),
    );
    if (!recorded) throw notFoundError('answer', vote.answerId);
    return recorded;
  }

  /**
   * Records a vote (or replaces the key's earlier one on the same answer and passage); undefined
   * when the answer is not one of the project's.
   */
  private async record(vote: NewFeedback): Promise<FeedbackRecord | undefined> {
    if (!isAnswerId(vote.answerId)) return undefined;
    // Milliseconds, as cursors carry them.
    const now = new Date().toISOString();
    const rows = await query('recording feedback', () =>
      sql<Selectable<FeedbackTable>>`
        insert into feedback (id, answer_id, project_id, api_key_id, user_id, target, chunk_id, vote, comment, created_at, updated_at)
        select ${newFeedbackId()}, a.id, a.project_id, ${vote.apiKeyId ?? null}::text, ${vote.userId ?? null}::text, ${vote.target},
               ${vote.chunkId ?? null}::text, ${vote.vote}::smallint, ${vote.comment ?? null}::text,
               ${now}::timestamptz, ${now}::timestamptz
        from answers a where a.id = ${vote.answerId} and a.project_id = ${vote.projectId}
        on conflict (answer_id, (coalesce(user_id, '')), (coalesce(api_key_id, '')), target, (coalesce(chunk_id, '')))
        do update set vote = excluded.vote, comment = excluded.comment, updated_at = excluded.updated_at
        returning *`.execute(this.db),
    );
    const row = rows.rows[0];
    return row && toFeedback(row);
  }

  /** Takes a vote back (a write refused after the fact). */
  private async delete(id: string): Promise<void> {
    await query('deleting feedback', () => this.db.deleteFrom('feedback').where('id', '=', id).execute());
  }

  /** One person's or key's votes on these answers of the project (neither: the bootstrap admin key's). */
  async feedbackOn(projectId: string, answerIds: string[], owner: RecordOwner): Promise<FeedbackRecord[]> {
    const ids = answerIds.filter(isAnswerId);
    if (ids.length === 0) return [];
    let rows = this.db
      .selectFrom('feedback')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('answer_id', 'in', ids);
    if (owner.userId !== undefined) rows = rows.where('user_id', '=', owner.userId);
    else {
      rows = rows.where('user_id', 'is', null);
      rows =
        owner.apiKeyId === undefined
          ? rows.where('api_key_id', 'is', null)
          : rows.where('api_key_id', '=', owner.apiKeyId);
    }
    const found = await query('reading feedback', () => rows.orderBy('created_at').orderBy('id').execute());
    return found.map(toFeedback);
  }

  /** A page of the project's votes with their answers, oldest vote first (the export). */
  async pageFeedback(projectId: string, request: PageRequest = {}): Promise<Page<FeedbackWithAnswer>> {
    const size = pageSize(request.first);
    let rows = this.db
      .selectFrom('feedback as f')
      .innerJoin('answers as a', 'a.id', 'f.answer_id')
      .selectAll('f')
      .select(['a.question', 'a.standalone_question', 'a.mode', 'a.hits'])
      .where('f.project_id', '=', projectId)
      .orderBy('f.created_at')
      .orderBy('f.id')
      .limit(size + 1);
    if (request.after) {
      const { at, id } = decodeCursor(request.after);
      rows = rows.where(sql<boolean>`(f.created_at, f.id) > (${at}::timestamptz, ${id})`);
    }
    const [items, count] = await query('listing feedback', () =>
      Promise.all([
        rows.execute(),
        this.db
          .selectFrom('feedback')
          .where('project_id', '=', projectId)
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow(),
      ]),
    );
    return toPage(
      items,
      count,
      size,
      (row) => row.created_at,
      (row) => ({
        vote: toFeedback(row),
        answer: {
          question: row.question,
          ...(row.standalone_question !== null && { standaloneQuestion: row.standalone_question }),
          mode: row.mode,
          hits: row.hits,
        },
      }),
    );
  }

  /**
   * The project's content gaps: questions (grouped by `normalizeQuestion` of what was searched)
   * left unanswered (INSUFFICIENT_CONTEXT, or an answer citing no passage) or voted down as
   * answers, most recently asked first.
   */
  async contentGaps(projectId: string, request: PageRequest = {}): Promise<Page<ContentGap>> {
    const size = pageSize(request.first);
    const after = request.after ? decodeCursor(request.after) : undefined;
    const gaps = sql`
      with asked as (
        select a.id, a.created_at, coalesce(a.standalone_question, a.question) as question, ${QUESTION_KEY} as key,
               -- An answer that quotes and cites nothing did not answer, whatever its mode.
               (a.mode = 'INSUFFICIENT_CONTEXT' or jsonb_array_length(a.citations) = 0) as unanswered,
               (select count(*) from feedback f
                 where f.answer_id = a.id and f.target = 'answer' and f.vote = -1) as down_votes,
               coalesce(u.name, k.name, case when a.user_id is null and a.api_key_id is null then 'admin key' end) as asker
        from answers a
        left join users u on u.id::text = a.user_id
        left join api_keys k on k.id::text = a.api_key_id
        where a.project_id = ${projectId}
      )
      select key,
             (array_agg(question order by created_at desc))[1] as question,
             count(*) as ask_count,
             count(*) filter (where unanswered) as unanswered_count,
             sum(down_votes) as down_vote_count,
             date_trunc('milliseconds', max(created_at)) as last_asked_at,
             (array_remove(array_agg(distinct asker), null))[1:20] as askers
      from asked group by key
      having count(*) filter (where unanswered) > 0 or sum(down_votes) > 0`;
    const [rows, count] = await query('listing content gaps', async () =>
      Promise.all([
        sql<GapRow>`select * from (${gaps}) g
          ${after ? sql`where (last_asked_at, key) < (${after.at}::timestamptz, ${after.id})` : sql``}
          order by last_asked_at desc, key desc limit ${size + 1}`.execute(this.db),
        sql<{ count: string }>`select count(*) as count from (${gaps}) g`.execute(this.db),
      ]),
    );
    const page = rows.rows.slice(0, size);
    const comments = await this.downVoteComments(
      projectId,
      page.map((row) => row.key),
    );
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        key: row.key,
        question: row.question,
        askCount: Number(row.ask_count),
        unansweredCount: Number(row.unanswered_count),
        downVoteCount: Number(row.down_vote_count),
        lastAskedAt: row.last_asked_at.toISOString(),
        askedBy: row.askers ?? [],
        comments: comments.get(row.key) ?? [],
      })),
      totalCount: Number(count.rows[0].count),
      endCursor: last && encodeCursor(last.last_asked_at, last.key),
      hasNextPage: rows.rows.length > size,
    };
  }

  /** The latest three comments of down votes on answers to each of these questions, newest first. */
  private async downVoteComments(projectId: string, keys: string[]): Promise<Map<string, string[]>> {
    const byKey = new Map<string, string[]>();
    if (keys.length === 0) return byKey;
    const rows = await query('reading feedback comments', () =>
      sql<{ key: string; comment: string }>`
        select key, comment from (
          select ${QUESTION_KEY} as key, f.comment,
                 row_number() over (partition by ${QUESTION_KEY} order by f.updated_at desc, f.id desc) as n
          from feedback f join answers a on a.id = f.answer_id
          where f.project_id = ${projectId} and f.target = 'answer' and f.vote = -1 and f.comment is not null
        ) c
        where n <= 3 and key in (${sql.join(keys)})
        order by key, n`.execute(this.db),
    );
    for (const row of rows.rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.comment]);
    return byKey;
  }
}

interface GapRow {
  key: string;
  question: string;
  ask_count: string | number;
  unanswered_count: string | number;
  down_vote_count: string | number;
  last_asked_at: Date;
  askers: string[] | null;
}

function toFeedback(row: Selectable<FeedbackTable>): FeedbackRecord {
  return {
    id: row.id,
    answerId: row.answer_id,
    projectId: row.project_id,
    ...(row.api_key_id !== null && { apiKeyId: row.api_key_id }),
    ...(row.user_id !== null && { userId: row.user_id }),
    target: row.target as FeedbackTarget,
    ...(row.chunk_id !== null && { chunkId: row.chunk_id }),
    vote: row.vote as FeedbackVote,
    ...(row.comment !== null && { comment: row.comment }),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
