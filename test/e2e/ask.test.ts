import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// No LLM is configured in the stack: answers are EXTRACTIVE (the offline default).
const stack = new TroveStack();
let projectId: string;
let runbookId: string;

const ASK = `query($input: AskInput!) { ask(input: $input) {
  answer mode insufficientContext language promptId model
  citations { marker chunkId documentId title headingPath citationUrl quote }
  verification { validMarkers invalidMarkers missingMarkers retried checkedSentences
    unsupportedSentences { sentence markers lexicalOverlap semanticSimilarity supported } }
  timings { embedMs searchMs rerankMs generateMs verifyMs totalMs } } }`;

interface AnswerView {
  answer: string;
  mode: string;
  insufficientContext: boolean;
  language: string;
  citations: {
    marker: number;
    chunkId: string;
    documentId: string;
    title: string;
    headingPath: string[];
    citationUrl: string | null;
    quote: string;
  }[];
  verification: {
    validMarkers: number[];
    invalidMarkers: number[];
    missingMarkers: boolean;
    retried: boolean;
    checkedSentences: number;
    unsupportedSentences: unknown[];
  };
  timings: Record<string, number | null>;
}

async function ask(input: Record<string, unknown>): Promise<AnswerView> {
  const data = await stack.query<{ ask: AnswerView }>(ASK, { input: { projectId, ...input } });
  return data.ask;
}

/** Reads a whole SSE response into its events. */
async function streamEvents(response: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)![1];
      const data = JSON.parse(/^data: (.+)$/m.exec(block)![1]) as Record<string, unknown>;
      return { event, data };
    });
}

function postStream(body: unknown, headers: Record<string, string> = { 'X-API-Key': ADMIN_KEY }) {
  return fetch(`${stack.url}/v1/projects/${projectId}/ask/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Ask e2e');
  const sample = (name: string) => readFileSync(join(ROOT, 'samples/quickstart', name), 'utf8');
  const runbook = await stack.upload(projectId, 'deploy-runbook.md', sample('deploy-runbook.md'));
  const basics = await stack.upload(projectId, 'search-basics.md', sample('search-basics.md'));
  runbookId = runbook.body.id as string;
  for (const id of [runbookId, basics.body.id as string]) {
    expect((await stack.settled(id)).status).toBe('READY');
  }
});
afterAll(() => stack.stop());

describe('ask without a language model', () => {
  it('answers EXTRACTIVE from the ingested Markdown, every marker cited, every citation link opening the original', async () => {
    const result = await ask({ question: 'How do I roll back a release?' });
    expect(result.mode).toBe('EXTRACTIVE');
    expect(result.insufficientContext).toBe(false);
    expect(result.language).toBe('en');
    expect(result.answer).toMatch(/^Quoted from your documents \(no language model/);
    expect(result.answer).toMatch(/roll ?back/i);

    const markers = [...result.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    expect(new Set(markers)).toEqual(new Set(result.citations.map((c) => c.marker)));
    expect(result.verification).toMatchObject({ invalidMarkers: [], missingMarkers: false, retried: false });
    expect(result.verification.checkedSentences).toBe(markers.length);
    expect(result.verification.unsupportedSentences).toEqual([]);

    const rollback = result.citations.find((c) => /roll ?back/i.test(c.quote));
    expect(rollback).toMatchObject({ documentId: runbookId, title: 'Deploy runbook' });
    expect(rollback!.headingPath).toContain('Rolling back');
    for (const citation of result.citations) {
      expect(citation.citationUrl).toMatch(
        new RegExp(`^${stack.url}/v1/documents/${citation.documentId}/original\\?sig=[\\w-]+(#.+)?$`),
      );
      // The signed link opens the original without the API key, as a browser would.
      const original = await fetch(citation.citationUrl!);
      expect(original.status).toBe(200);
      const word = /\p{L}{5,}/u.exec(citation.quote)![0];
      expect(await original.text()).toContain(word);
    }
    expect(result.timings.searchMs).toBeGreaterThan(0);
    expect(result.timings.embedMs).toBeGreaterThan(0);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.searchMs!);
  });

  it('says the knowledge base does not hold enough for an out-of-domain question under a threshold', async () => {
    const outside = await ask({ question: 'Who painted the Mona Lisa?', threshold: 0.84 });
    expect(outside).toMatchObject({
      mode: 'INSUFFICIENT_CONTEXT',
      insufficientContext: true,
      answer: 'The knowledge base does not hold enough information to answer this question.',
      citations: [],
    });
    // The same threshold lets an in-domain question through: it is the relevance that decides.
    const inside = await ask({ question: 'When do releases go out?', threshold: 0.84 });
    expect(inside.mode).toBe('EXTRACTIVE');
    expect(inside.citations.some((c) => c.quote.includes('Tuesday'))).toBe(true);
  });

  it('answers in the language of the question, Russian included', async () => {
    const result = await ask({ question: 'Кто написал картину «Мона Лиза»?', threshold: 0.84 });
    expect(result.language).toBe('ru');
    expect(result.answer).toBe('В базе знаний недостаточно информации, чтобы ответить на этот вопрос.');
  });

  it('refuses mode LLM while no model is configured, and a topK out of range, with BAD_REQUEST', async () => {
    for (const input of [
      { question: 'How do I roll back?', mode: 'LLM' },
      { question: 'How do I roll back?', topK: 500 },
    ]) {
      const body = await stack.gql(ASK, { input: { projectId, ...input } });
      expect(body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    }
  });
});

describe('ask as a Server-Sent Events stream', () => {
  it('sends retrieval, delta and done, the final result matching the deltas', async () => {
    const response = await postStream({ question: 'How do I roll back a release?', topK: 5 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await streamEvents(response);
    expect(events.map((e) => e.event)).toEqual(['retrieval', 'delta', 'done']);

    const passages = events[0].data.passages as { marker: number; chunkId: string; citationUrl: string }[];
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(5);
    expect(passages.map((p) => p.marker)).toEqual(passages.map((_, i) => i + 1));
    expect(passages[0].citationUrl).toMatch(/\/original\?sig=/);

    const done = events[2].data as unknown as AnswerView;
    expect(done.mode).toBe('EXTRACTIVE');
    expect(events[1].data.text).toBe(done.answer);
    for (const citation of done.citations) {
      expect(passages.find((p) => p.marker === citation.marker)?.chunkId).toBe(citation.chunkId);
    }
  });

  it('answers JSON errors before streaming: no key, a bad body, an unknown project', async () => {
    const noKey = await postStream({ question: 'How?' }, {});
    expect(noKey.status).toBe(401);
    const badBody = await postStream({ question: 42 });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    const unknown = await fetch(`${stack.url}/v1/projects/prj_00000000000000000000000000/ask/stream`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'How do I roll back?' }),
    });
    expect([400, 404]).toContain(unknown.status);
  });
});
