import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openCatalog, type CatalogRepositories, type NewAnswer } from '@trove/catalog';
import { newThreadId, TroveErrorCode } from '@trove/domain';
import { DATABASE_URL, dropTestData, schemaName, uniqueName } from '../../support/services';

// Answers and threads against the real PostgreSQL, in a schema of their own.
const name = uniqueName('answers');
let catalog: CatalogRepositories;

beforeAll(async () => {
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

const answer = (projectId: string, overrides: Partial<NewAnswer> = {}): NewAnswer => ({
  projectId,
  question: 'How do I deploy in the Berlin office?',
  mode: 'EXTRACTIVE',
  answer: 'Run deployctl [1].',
  citations: [
    {
      marker: 1,
      chunkId: 'doc-0-0123456789ab',
      documentId: 'doc',
      title: 'Berlin',
      headingPath: ['Berlin', 'Deploy'],
      citationUrl: '/v1/documents/doc/original#deploy',
      quote: 'Run deployctl.',
    },
  ],
  hits: [
    {
      chunkId: 'doc-0-0123456789ab',
      documentId: 'doc',
      rank: 1,
      score: 0.032,
      features: { 'bm25.scoreRatio': 1, 'knn.missing': 0 },
    },
  ],
  ...overrides,
});

describe('answers in the catalog', () => {
  it('records an answer outside a thread with its citations and hits, readable only in its project', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const other = await catalog.projects.createProject(uniqueName('p'));
    const id = await catalog.answers.recordAnswer(answer(project.id, { apiKeyId: 'key-1' }));
    expect(id).toMatch(/^ans_/);
    const stored = await catalog.answers.getAnswer(project.id, id);
    expect(stored).toMatchObject({
      id,
      projectId: project.id,
      apiKeyId: 'key-1',
      question: 'How do I deploy in the Berlin office?',
      mode: 'EXTRACTIVE',
      citations: [expect.objectContaining({ citationUrl: '/v1/documents/doc/original#deploy' })],
      hits: [
        { chunkId: 'doc-0-0123456789ab', rank: 1, features: { 'bm25.scoreRatio': 1, 'knn.missing': 0 } },
      ],
    });
    expect(stored!.threadId).toBeUndefined();
    expect(stored!.position).toBeUndefined();
    expect(stored!.standaloneQuestion).toBeUndefined();
    expect(await catalog.answers.getAnswer(other.id, id)).toBeUndefined();
    expect(await catalog.answers.answerProject(id)).toBe(project.id);
    expect(await catalog.answers.getAnswer(project.id, 'not-an-id')).toBeUndefined();
  });

  it('starts a thread with its first answer, numbers follow-ups, and two at once get distinct turns', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const threadId = newThreadId();
    await catalog.answers.recordAnswer(
      answer(project.id, { thread: { new: { id: threadId, title: 'Deploy in Berlin' } } }),
    );
    await Promise.all(
      ['and for the Russian office?', 'what about Paris?'].map((question) =>
        catalog.answers.recordAnswer(
          answer(project.id, {
            thread: { id: threadId },
            question,
            standaloneQuestion: `How do I deploy in ${question}`,
          }),
        ),
      ),
    );
    const turns = await catalog.answers.threadTurns(threadId);
    expect(turns.map((t) => t.position)).toEqual([1, 2, 3]);
    expect(turns[0].standaloneQuestion).toBeUndefined();
    expect(turns[1].standaloneQuestion).toMatch(/^How do I deploy in/);
    expect(await catalog.answers.getThread(threadId)).toMatchObject({
      id: threadId,
      projectId: project.id,
      title: 'Deploy in Berlin',
      turnCount: 3,
    });
  });

  it('refuses a turn in a thread of another project, or one that is gone (THREAD_NOT_FOUND), writing nothing', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const other = await catalog.projects.createProject(uniqueName('p'));
    const thread = await catalog.answers.createThread({ projectId: project.id, title: 't' });
    await expect(
      catalog.answers.recordAnswer(answer(other.id, { thread: { id: thread.id } })),
    ).rejects.toMatchObject({
      code: TroveErrorCode.ThreadNotFound,
    });
    await expect(
      catalog.answers.recordAnswer(answer(project.id, { thread: { id: newThreadId() } })),
    ).rejects.toMatchObject({ code: TroveErrorCode.ThreadNotFound });
    expect((await catalog.answers.listAnswers(other.id)).totalCount).toBe(0);
  });

  it('writes nothing to a project being deleted (PROJECT_DELETING) or missing, and goes with the project', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const thread = await catalog.answers.createThread({ projectId: project.id, title: 't' });
    await catalog.answers.recordAnswer(answer(project.id, { thread: { id: thread.id } }));
    await catalog.projects.markProjectDeleting(project.id);
    await expect(catalog.answers.recordAnswer(answer(project.id))).rejects.toMatchObject({
      code: TroveErrorCode.ProjectDeleting,
    });
    await expect(
      catalog.answers.recordAnswer(answer(project.id, { thread: { new: { title: 'new' } } })),
    ).rejects.toMatchObject({ code: TroveErrorCode.ProjectDeleting });
    await expect(catalog.answers.createThread({ projectId: project.id, title: 't' })).rejects.toMatchObject({
      code: TroveErrorCode.ProjectDeleting,
    });
    expect((await catalog.answers.listThreads(project.id, 'ALL')).totalCount).toBe(1);
    await catalog.projects.deleteProject(project.id);
    expect(await catalog.answers.getThread(thread.id)).toBeUndefined();
    const left = await sql<{
      n: string;
    }>`select count(*) as n from answers where project_id = ${project.id}`.execute(catalog.lifecycle.db);
    expect(Number(left.rows[0].n)).toBe(0);
    await expect(catalog.answers.recordAnswer(answer(project.id))).rejects.toMatchObject({
      code: TroveErrorCode.ProjectNotFound,
    });
  });

  it("lists a key's own threads (or every key's), most recently used first, by cursor", async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const mine = [];
    for (const title of ['one', 'two', 'three']) {
      mine.push(await catalog.answers.createThread({ projectId: project.id, apiKeyId: 'key-a', title }));
    }
    await catalog.answers.createThread({ projectId: project.id, apiKeyId: 'key-b', title: 'theirs' });
    const admins = await catalog.answers.createThread({ projectId: project.id, title: 'bootstrap admin' });
    // A new turn brings "one" to the top.
    await catalog.answers.recordAnswer(answer(project.id, { thread: { id: mine[0].id }, apiKeyId: 'key-a' }));

    const first = await catalog.answers.listThreads(project.id, { apiKeyId: 'key-a' }, { first: 2 });
    expect(first.items.map((t) => t.title)).toEqual(['one', 'three']);
    expect(first).toMatchObject({ totalCount: 3, hasNextPage: true });
    expect(first.items[0]).toMatchObject({ apiKeyId: 'key-a', turnCount: 1 });
    const second = await catalog.answers.listThreads(
      project.id,
      { apiKeyId: 'key-a' },
      { first: 2, after: first.endCursor },
    );
    expect(second.items.map((t) => t.title)).toEqual(['two']);
    expect(second.hasNextPage).toBe(false);
    expect((await catalog.answers.listThreads(project.id, {})).items.map((t) => t.id)).toEqual([admins.id]);
    expect((await catalog.answers.listThreads(project.id, 'ALL')).totalCount).toBe(5);
  });

  it('renames and deletes a thread with its turns; unknown ids are undefined or false', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const thread = await catalog.answers.createThread({ projectId: project.id, title: 'first question' });
    const turn = await catalog.answers.recordAnswer(answer(project.id, { thread: { id: thread.id } }));
    expect(await catalog.answers.renameThread(thread.id, 'Deploys')).toMatchObject({
      id: thread.id,
      title: 'Deploys',
    });
    expect(await catalog.answers.renameThread(newThreadId(), 'x')).toBeUndefined();
    expect(await catalog.answers.deleteThread(thread.id)).toBe(true);
    expect(await catalog.answers.deleteThread(thread.id)).toBe(false);
    expect(await catalog.answers.getAnswer(project.id, turn)).toBeUndefined();
    expect(await catalog.answers.threadTurns(thread.id)).toEqual([]);
  });

  it('lists answers newest first, by mode and since a time', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const a = await catalog.answers.recordAnswer(answer(project.id, { mode: 'INSUFFICIENT_CONTEXT' }));
    const b = await catalog.answers.recordAnswer(answer(project.id, { mode: 'EXTRACTIVE' }));
    const c = await catalog.answers.recordAnswer(answer(project.id, { mode: 'INSUFFICIENT_CONTEXT' }));
    await sql`update answers set created_at = now() - interval '2 days' where id = ${a}`.execute(
      catalog.lifecycle.db,
    );
    expect((await catalog.answers.listAnswers(project.id)).items.map((x) => x.id)).toEqual([c, b, a]);
    const refused = await catalog.answers.listAnswers(
      project.id,
      { mode: 'INSUFFICIENT_CONTEXT' },
      { first: 1 },
    );
    expect(refused.items.map((x) => x.id)).toEqual([c]);
    expect(refused.totalCount).toBe(2);
    const next = await catalog.answers.listAnswers(
      project.id,
      { mode: 'INSUFFICIENT_CONTEXT' },
      { after: refused.endCursor },
    );
    expect(next.items.map((x) => x.id)).toEqual([a]);
    const recent = await catalog.answers.listAnswers(project.id, {
      since: new Date(Date.now() - 86_400_000),
    });
    expect(recent.items.map((x) => x.id)).toEqual([c, b]);
  });

  it('pages answers of one millisecond apart by their microseconds, losing none', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(await catalog.answers.recordAnswer(answer(project.id)));
    // Four answers within one millisecond (as a busy api writes them), microseconds apart.
    for (const [k, id] of ids.entries()) {
      await sql`update answers set created_at = date_trunc('milliseconds', now()) + ${k + 1} * interval '1 microsecond'
        where id = ${id}`.execute(catalog.lifecycle.db);
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await catalog.answers.listAnswers(project.id, {}, { first: 1, after });
      seen.push(...page.items.map((x) => x.id));
      if (!page.hasNextPage) break;
      after = page.endCursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('retention deletes unused threads with their turns and old answers outside threads, keeping threads in use', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const old = await catalog.answers.createThread({ projectId: project.id, title: 'old' });
    const oldTurn = await catalog.answers.recordAnswer(answer(project.id, { thread: { id: old.id } }));
    const used = await catalog.answers.createThread({ projectId: project.id, title: 'used' });
    const usedOldTurn = await catalog.answers.recordAnswer(answer(project.id, { thread: { id: used.id } }));
    const oldAnswer = await catalog.answers.recordAnswer(answer(project.id));
    const newAnswer = await catalog.answers.recordAnswer(answer(project.id));
    const tenDaysAgo = sql`now() - interval '10 days'`;
    await sql`update threads set updated_at = ${tenDaysAgo} where id in (${old.id}, ${used.id})`.execute(
      catalog.lifecycle.db,
    );
    await sql`update answers set created_at = ${tenDaysAgo} where id in (${oldTurn}, ${usedOldTurn}, ${oldAnswer})`.execute(
      catalog.lifecycle.db,
    );
    await catalog.answers.recordAnswer(answer(project.id, { thread: { id: used.id } }));

    const removed = await catalog.answers.deleteAnswersBefore(new Date(Date.now() - 5 * 86_400_000));
    expect(removed.threads).toBeGreaterThanOrEqual(1);
    expect(removed.answers).toBeGreaterThanOrEqual(1);
    expect(await catalog.answers.getThread(old.id)).toBeUndefined();
    expect(await catalog.answers.getAnswer(project.id, oldTurn)).toBeUndefined();
    expect(await catalog.answers.getAnswer(project.id, oldAnswer)).toBeUndefined();
    expect(await catalog.answers.getAnswer(project.id, newAnswer)).toBeDefined();
    expect((await catalog.answers.threadTurns(used.id)).map((t) => t.id)[0]).toBe(usedOldTurn);
  });
});
