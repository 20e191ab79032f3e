import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackExportLine } from '@trove/domain';
import {
  contributions,
  featureRow,
  FEATURE_NAMES,
  feedbackTrainingGroups,
  parseFeedbackLines,
  parseLinearModel,
  tallyFeedback,
} from '@trove/reranking';
import committedModel from '../../libs/reranking/src/learned/model.json';
import { cleanEnv, runTrove } from '../support/cli';
import { ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Feedback through the public API: votes on answers and passages, the export the reranker's
// trainer reads, the content gaps view, and who may see what. No LLM: answers are EXTRACTIVE.
// The learned reranker is on (it is off by default), so recorded features can be checked against
// the scores it served.
const stack = new TroveStack({ TROVE_RERANK_PROVIDER: 'learned' });
let projectId: string;
let viewerKey: string;
let viewerName: string;
let otherViewerKey: string;

const ASK = `query($input: AskInput!) { ask(input: $input) {
  answerId mode citations { chunkId documentId } } }`;
const GIVE = `mutation($input: GiveFeedbackInput!) { giveFeedback(input: $input) {
  id answerId target chunkId vote comment createdAt updatedAt } }`;
const GAPS = `query($projectId: ID!) { contentGaps(projectId: $projectId, first: 50) {
  totalCount nodes { question askCount unansweredCount downVoteCount comments askedBy } } }`;

interface Asked {
  answerId: string;
  mode: string;
  citations: { chunkId: string; documentId: string }[];
}

const as = (key: string) => ({ 'X-API-Key': key });

async function ask(key: string, question: string, extra: Record<string, unknown> = {}): Promise<Asked> {
  const body = await stack.gql<{ ask: Asked }>(ASK, { input: { projectId, question, ...extra } }, as(key));
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!.ask;
}

function give(key: string, input: Record<string, unknown>) {
  return stack.gql<{ giveFeedback: Record<string, unknown> }>(GIVE, { input }, as(key));
}

function exportFeedback(key = ADMIN_KEY) {
  return fetch(`${stack.url}/v1/projects/${projectId}/feedback.jsonl`, { headers: as(key) });
}

async function createKey(name: string): Promise<string> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
    { input: { name, role: 'VIEWER', projectIds: [projectId] } },
  );
  return createApiKey.secret;
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject(uniqueName('Feedback e2e'));
  for (const name of ['deploy-runbook.md', 'search-basics.md']) {
    const upload = await stack.upload(
      projectId,
      name,
      readFileSync(join(ROOT, 'samples/quickstart', name), 'utf8'),
    );
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
  }
  viewerName = uniqueName('feedback viewer');
  viewerKey = await createKey(viewerName);
  otherViewerKey = await createKey(uniqueName('another viewer'));
});
afterAll(() => stack.stop());

describe('feedback on answers', () => {
  it('a VIEWER votes on its answer and a passage; voting again replaces; the export carries it to the trainer', async () => {
    const answer = await ask(viewerKey, 'How do I roll back a release?');
    expect(answer.mode).toBe('EXTRACTIVE');
    expect(answer.answerId).toMatch(/^ans_/);
    const cited = answer.citations[0];

    const first = await give(viewerKey, { answerId: answer.answerId, chunkId: cited.chunkId, vote: 'UP' });
    expect(first.data?.giveFeedback).toMatchObject({ target: 'PASSAGE', chunkId: cited.chunkId, vote: 'UP' });
    const again = await give(viewerKey, {
      answerId: answer.answerId,
      chunkId: cited.chunkId,
      vote: 'DOWN',
      comment: '  Says nothing about database migrations.  ',
    });
    expect(again.data?.giveFeedback).toMatchObject({
      id: first.data!.giveFeedback.id,
      vote: 'DOWN',
      comment: 'Says nothing about database migrations.',
    });
    await give(viewerKey, { answerId: answer.answerId, vote: 'DOWN', comment: 'Too vague' });
    const mine = await stack.gql<{ myFeedback: { target: string; vote: string }[] }>(
      'query($p: ID!, $a: [ID!]!) { myFeedback(projectId: $p, answerIds: $a) { target vote } }',
      { p: projectId, a: [answer.answerId] },
      as(viewerKey),
    );
    expect(mine.data?.myFeedback).toEqual([
      { target: 'PASSAGE', vote: 'DOWN' },
      { target: 'ANSWER', vote: 'DOWN' },
    ]);

    const response = await exportFeedback();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get('x-total-count')).toBe('2');
    const text = await response.text();
    const lines = parseFeedbackLines(text, 'export');
    expect(lines).toHaveLength(2);
    const passage = lines.find((l) => l.target === 'passage')!;
    expect(passage).toMatchObject({
      answerId: answer.answerId,
      projectId,
      question: 'How do I roll back a release?',
      mode: 'EXTRACTIVE',
      chunkId: cited.chunkId,
      documentId: cited.documentId,
      vote: -1,
      comment: 'Says nothing about database migrations.',
    });
    expect(passage.featureNames.sort()).toEqual([...FEATURE_NAMES].sort());
    expect(passage.hits.map((h) => h.rank)).toEqual(passage.hits.map((_, i) => i + 1));
    await expectRerankerFeatures(passage);

    // What the trainer makes of it: one question whose down-voted passage goes below the others.
    const { questions, tally } = tallyFeedback(lines);
    expect(tally).toMatchObject({ passageVotes: 1, answerVotes: 1, otherFeatures: 0 });
    expect(questions[0].votes).toEqual(new Map([[cited.chunkId, -1]]));
    if (passage.hits.length > 1) expect(feedbackTrainingGroups(questions)[0].pairs.length).toBeGreaterThan(0);
  });

  it("refuses a vote on another key's answer, on a chunk that is not one of its passages, and a long comment", async () => {
    const answer = await ask(viewerKey, 'When do releases go out?');
    const other = await give(otherViewerKey, { answerId: answer.answerId, vote: 'UP' });
    expect(other.errors?.[0].extensions?.code).toBe('ANSWER_NOT_FOUND');
    // The admin key sees every answer of the project.
    expect((await give(ADMIN_KEY, { answerId: answer.answerId, vote: 'UP' })).errors).toBeUndefined();
    const elsewhere = `${answer.citations[0].documentId}-999-0123456789ab`;
    const notAHit = await give(viewerKey, { answerId: answer.answerId, chunkId: elsewhere, vote: 'UP' });
    expect(notAHit.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/is not a passage of answer/),
    });
    const long = await give(viewerKey, {
      answerId: answer.answerId,
      vote: 'DOWN',
      comment: 'x'.repeat(2001),
    });
    expect(long.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    const ghost = await give(viewerKey, { answerId: 'ans_00000000-0000-4000-8000-000000000000', vote: 'UP' });
    expect(ghost.errors?.[0].extensions?.code).toBe('ANSWER_NOT_FOUND');
    const malformed = await give(viewerKey, { answerId: 'not-an-answer', vote: 'UP' });
    expect(malformed.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  it('a VIEWER may ask but not see the content gaps or the export; the admin sees unanswered and voted-down questions', async () => {
    const unanswered = await ask(viewerKey, 'Who painted the Mona Lisa?', { threshold: 0.99 });
    expect(unanswered.mode).toBe('INSUFFICIENT_CONTEXT');

    const refusedGaps = await stack.gql(GAPS, { projectId }, as(viewerKey));
    expect(refusedGaps.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const refusedExport = await exportFeedback(viewerKey);
    expect(refusedExport.status).toBe(403);
    expect(((await refusedExport.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');

    const { contentGaps } = await stack.query<{
      contentGaps: {
        nodes: { question: string; unansweredCount: number; downVoteCount: number; comments: string[] }[];
      };
    }>(GAPS, { projectId });
    expect(contentGaps.nodes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          question: 'Who painted the Mona Lisa?',
          unansweredCount: 1,
          downVoteCount: 0,
          askedBy: [viewerName],
        }),
        expect.objectContaining({
          question: 'How do I roll back a release?',
          unansweredCount: 0,
          downVoteCount: 1,
          comments: ['Too vague'],
        }),
      ]),
    );
    // Answered and voted up: not a gap.
    expect(contentGaps.nodes.map((g) => g.question)).not.toContain('When do releases go out?');
  });

  it('trove feedback export writes the export to stdout, a line per vote', async () => {
    const run = await runTrove(['feedback', 'export', projectId], {
      cwd: mkdtempSync(join(tmpdir(), 'trove-feedback-cli-')),
      env: cleanEnv({ TROVE_API_URL: stack.url, TROVE_API_KEY: ADMIN_KEY }),
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = parseFeedbackLines(run.stdout, 'stdout');
    expect(lines.length).toBe(Number((await exportFeedback()).headers.get('x-total-count')));
    expect(run.stderr).toContain(`exported ${lines.length} votes`);
    const viewer = await runTrove(['feedback', 'export', projectId], {
      cwd: mkdtempSync(join(tmpdir(), 'trove-feedback-cli-')),
      env: cleanEnv({ TROVE_API_URL: stack.url, TROVE_API_KEY: viewerKey }),
    });
    expect(viewer.code).toBe(4);
    expect(viewer.stdout).toBe('');
  });
});

/**
 * The recorded features are the very ones the learned reranker scored: the model's score computed
 * from them alone is each hit's rerank score in a search for the same question.
 */
async function expectRerankerFeatures(line: FeedbackExportLine) {
  const model = parseLinearModel(committedModel);
  const { search } = await stack.query<{
    search: { hits: { chunkId: string; rerankScore: number | null }[] };
  }>('query($input: SearchInput!) { search(input: $input) { hits { chunkId rerankScore } } }', {
    input: { projectId, query: line.question, limit: 30 },
  });
  const served = new Map(search.hits.map((hit) => [hit.chunkId, hit.rerankScore]));
  expect(line.hits.length).toBeGreaterThan(0);
  for (const hit of line.hits) {
    const score = contributions(model, featureRow(hit)).reduce((a, b) => a + b, 0);
    expect(served.get(hit.chunkId)).toBeCloseTo(score, 6);
  }
}
