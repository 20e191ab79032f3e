import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogRepositories, type NewAnswer, type NewFeedback } from '@trove/catalog';
import { normalizeQuestion, TroveErrorCode } from '@trove/domain';
import { DATABASE_URL, dropTestData, schemaName, uniqueName } from '../../support/services';

// Votes on answers, their export and the content gaps, against the real PostgreSQL.
const name = uniqueName('feedback');
let catalog: CatalogRepositories;

beforeAll(async () => {
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

const CHUNK_A = 'doc-0-0123456789ab';
const CHUNK_B = 'doc-1-0123456789ab';

function answer(projectId: string, overrides: Partial<NewAnswer> = {}): NewAnswer {
  return {
    projectId,
    apiKeyId: 'key-1',
    question: 'How do I deploy in Berlin?',
    mode: 'EXTRACTIVE',
    answer: 'Run deployctl [1].',
    citations: [
      {
        marker: 1,
        chunkId: CHUNK_A,
        documentId: 'doc',
        title: 'Deploy',
        headingPath: ['Deploy'],
        quote: 'Run deployctl.',
      },
    ],
    hits: [
      { chunkId: CHUNK_A, documentId: 'doc', rank: 1, score: 0.03, features: { 'bm25.scoreRatio': 1 } },
      { chunkId: CHUNK_B, documentId: 'doc', rank: 2, score: 0.02, features: { 'bm25.scoreRatio': 0.5 } },
    ],
    ...overrides,
  };
}

/** Every vote of the project, through the export's pages. */
async function exported(projectId: string, first = 500) {
  const all = [];
  let after: string | undefined;
  for (;;) {
    const page = await catalog.feedback.pageFeedback(projectId, { first, after });
    all.push(...page.items);
    if (!page.hasNextPage) return all;
    after = page.endCursor;
  }
}

describe('feedback in the catalog', () => {
  it("records a key's vote on an answer and on a passage; voting again replaces it, per key", async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const answerId = await catalog.answers.recordAnswer(answer(project.id));
    const onA = (vote: 1 | -1, more: Partial<NewFeedback> = {}) =>
      catalog.feedback.recordFeedback({
        answerId,
        projectId: project.id,
        target: 'passage',
        chunkId: CHUNK_A,
        vote,
        ...more,
      });
    const up = await onA(1, { apiKeyId: 'key-1' });
    expect(up).toMatchObject({
      id: expect.stringMatching(/^fbk_/),
      target: 'passage',
      chunkId: CHUNK_A,
      vote: 1,
    });
    const again = await onA(-1, { apiKeyId: 'key-1', comment: 'outdated' });
    expect(again).toMatchObject({ id: up.id, vote: -1, comment: 'outdated', createdAt: up.createdAt });
    // The bootstrap admin key (no id) and another key vote apart; a vote on the answer is apart too.
    await onA(1);
    await onA(1);
    await onA(1, { apiKeyId: 'key-2' });
    await onA(1, { apiKeyId: 'key-1', target: 'answer', chunkId: undefined });
    const votes = await exported(project.id);
    expect(votes).toHaveLength(4);
    expect(await catalog.feedback.feedbackOn(project.id, [answerId], { apiKeyId: 'key-1' })).toEqual([
      expect.objectContaining({ target: 'passage', vote: -1, comment: 'outdated' }),
      expect.objectContaining({ target: 'answer', vote: 1 }),
    ]);
    const admins = await catalog.feedback.feedbackOn(project.id, [answerId], {});
    expect(admins).toEqual([expect.objectContaining({ chunkId: CHUNK_A, vote: 1 })]);
    expect(admins[0].apiKeyId).toBeUndefined();
  });

  it('exports each vote with its question and the hits with their features, in pages, oldest first', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const answerId = await catalog.answers.recordAnswer(
      answer(project.id, { question: 'and in Berlin?', standaloneQuestion: 'How do I deploy in Berlin?' }),
    );
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      await catalog.feedback.recordFeedback({
        answerId,
        projectId: project.id,
        apiKeyId: key,
        target: 'passage',
        chunkId: i % 2 ? CHUNK_B : CHUNK_A,
        vote: 1,
      });
    }
    const votes = await exported(project.id, 2);
    expect(votes.map((v) => v.vote.apiKeyId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(votes[0].answer).toEqual({
      question: 'and in Berlin?',
      standaloneQuestion: 'How do I deploy in Berlin?',
      mode: 'EXTRACTIVE',
      hits: answer(project.id).hits,
    });
  });

  it('refuses an answer of another project, and writes nothing once the project is being deleted', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const other = await catalog.projects.createProject(uniqueName('p'));
    const answerId = await catalog.answers.recordAnswer(answer(project.id));
    await expect(
      catalog.feedback.recordFeedback({ answerId, projectId: other.id, target: 'answer', vote: 1 }),
    ).rejects.toMatchObject({ code: TroveErrorCode.AnswerNotFound });
    await catalog.projects.markProjectDeleting(project.id);
    await expect(
      catalog.feedback.recordFeedback({ answerId, projectId: project.id, target: 'answer', vote: 1 }),
    ).rejects.toMatchObject({ code: TroveErrorCode.ProjectDeleting });
    expect(await exported(project.id)).toEqual([]);
  });

  it('keeps a comment to 2000 characters and a passage vote to one naming its passage (database checks)', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const answerId = await catalog.answers.recordAnswer(answer(project.id));
    await expect(
      catalog.feedback.recordFeedback({
        answerId,
        projectId: project.id,
        target: 'answer',
        vote: 1,
        comment: 'x'.repeat(2001),
      }),
    ).rejects.toThrow();
    await expect(
      catalog.feedback.recordFeedback({ answerId, projectId: project.id, target: 'passage', vote: 1 }),
    ).rejects.toThrow();
  });

  it('goes with its answer, and with the project', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const answerId = await catalog.answers.recordAnswer(answer(project.id));
    await catalog.feedback.recordFeedback({ answerId, projectId: project.id, target: 'answer', vote: -1 });
    await catalog.answers.deleteAnswersBefore(new Date(Date.now() + 60_000));
    expect(await exported(project.id)).toEqual([]);
    const kept = await catalog.answers.recordAnswer(answer(project.id));
    await catalog.feedback.recordFeedback({
      answerId: kept,
      projectId: project.id,
      target: 'answer',
      vote: -1,
    });
    await catalog.projects.deleteProject(project.id);
    expect(await exported(project.id)).toEqual([]);
  });

  it('lists unanswered and voted-down questions as gaps, one per question however it was typed', async () => {
    const project = await catalog.projects.createProject(uniqueName('p'));
    const spellings = ['Где ВЗЯТЬ отпуск?', 'где  взять отпуск', '  Где взять ОТПУСК ?! '];
    // An answer that cites nothing (quotes with no supporting passage) left the question unanswered.
    await catalog.answers.recordAnswer(
      answer(project.id, { question: 'Where is the VPN guide?', citations: [] }),
    );
    // One spelling asked by a person, the others by a key no longer in the catalog (no name to show).
    const { user: asker } = (await catalog.users.matchSignIn(
      {
        provider: 'kc',
        issuer: 'https://idp.example/realms/gaps',
        subject: uniqueName('asker'),
        email: `${uniqueName('asker')}@x.test`,
        emailVerified: true,
        name: 'Ada Asker',
      },
      true,
    ))!;
    for (const [i, question] of spellings.entries()) {
      const owner = i === 1 ? { apiKeyId: undefined, userId: asker.id } : {};
      await catalog.answers.recordAnswer(
        answer(project.id, { question, mode: 'INSUFFICIENT_CONTEXT', hits: [], ...owner }),
      );
    }
    // SQL groups exactly as normalizeQuestion does.
    expect(new Set(spellings.map(normalizeQuestion)).size).toBe(1);
    const voted = await catalog.answers.recordAnswer(
      answer(project.id, { question: 'Who approves expenses?' }),
    );
    await catalog.feedback.recordFeedback({
      answerId: voted,
      projectId: project.id,
      target: 'answer',
      vote: -1,
      comment: 'wrong team',
    });
    await catalog.feedback.recordFeedback({
      answerId: voted,
      projectId: project.id,
      apiKeyId: 'k',
      target: 'answer',
      vote: -1,
    });
    // Answered and voted up, or voted down only on a passage: no gap.
    const fine = await catalog.answers.recordAnswer(answer(project.id, { question: 'How do I deploy?' }));
    await catalog.feedback.recordFeedback({
      answerId: fine,
      projectId: project.id,
      target: 'answer',
      vote: 1,
    });
    await catalog.feedback.recordFeedback({
      answerId: fine,
      projectId: project.id,
      target: 'passage',
      chunkId: CHUNK_A,
      vote: -1,
    });

    const all = await catalog.feedback.contentGaps(project.id, { first: 10 });
    expect(all.totalCount).toBe(3);
    expect(all.items.find((gap) => gap.question === 'Where is the VPN guide?')).toMatchObject({
      askCount: 1,
      unansweredCount: 1,
      downVoteCount: 0,
    });
    expect(all.items.map((gap) => gap.question)).toEqual([
      'Who approves expenses?',
      spellings[2],
      'Where is the VPN guide?',
    ]);
    const first = await catalog.feedback.contentGaps(project.id, { first: 1 });
    expect(first.totalCount).toBe(3);
    expect(first.items).toEqual([
      expect.objectContaining({
        key: 'who approves expenses',
        question: 'Who approves expenses?',
        askCount: 1,
        unansweredCount: 0,
        downVoteCount: 2,
        comments: ['wrong team'],
        askedBy: [],
      }),
    ]);
    expect(first.hasNextPage).toBe(true);
    const second = await catalog.feedback.contentGaps(project.id, { first: 1, after: first.endCursor });
    expect(second.items).toEqual([
      expect.objectContaining({
        key: normalizeQuestion(spellings[0]),
        question: spellings[2],
        askCount: 3,
        unansweredCount: 3,
        downVoteCount: 0,
        comments: [],
        askedBy: ['Ada Asker'],
      }),
    ]);
    expect(second.hasNextPage).toBe(true);
  });
});
