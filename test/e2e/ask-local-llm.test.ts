import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLocalModel } from '../support/local-llm';
import { QUERY_EMBEDDER_URL, ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// The api answering with a real language model in its own process: TROVE_LLM=local with the
// catalogue's small model (SmolLM2-135M-Instruct, installed from PyPI by infra/local/llm-model.sh),
// greedy so its answers repeat. A 135M model writes weak answers: what is checked is the
// protocol and the guarantees around it — streaming, cited sentences naming the passages given,
// the follow-up rewritten by the model, and the time budget's labelled fallback.
const MODEL = 'smollm2-135m';
const stack = new TroveStack({
  TROVE_LLM: 'local',
  TROVE_LLM_MODEL: MODEL,
  TROVE_LLM_TEMPERATURE: '0',
  TROVE_LLM_THREADS: '1',
  // Short answers: the small model tends to repeat itself up to its limit.
  TROVE_LLM_MAX_TOKENS: '96',
  // A deadline that only bounds a hang: the rewrite must come from the model, however loaded the machine.
  TROVE_ANSWER_REWRITE_TIMEOUT_MS: '120000',
  // Questions on the query lane, as the quick start has them: not behind other stacks' ingests.
  TROVE_EMBEDDING_QUERY_URL: QUERY_EMBEDDER_URL,
  // The LLM call counts are read from the api's /metrics, closed without a token otherwise.
  TROVE_METRICS_ALLOW_LOOPBACK: 'true',
});
let projectId: string;
let runbookId: string;

const ANSWER_FIELDS = `answerId threadId standaloneQuestion answer mode insufficientContext model fallbackReason
  citations { marker chunkId documentId quote }
  verification { validMarkers invalidMarkers missingMarkers retried checkedSentences
    unsupportedSentences { sentence markers supported } }
  timings { rewriteMs generateMs totalMs }`;
const ASK = `query($input: AskInput!) { ask(input: $input) { ${ANSWER_FIELDS} } }`;
const UPDATE = `mutation($input: UpdateRagConfigInput!) { updateRagConfig(input: $input) { version } }`;

interface Answer {
  threadId: string | null;
  standaloneQuestion: string | null;
  answer: string;
  mode: string;
  model: string | null;
  fallbackReason: string | null;
  citations: { marker: number; chunkId: string; documentId: string; quote: string }[];
  verification: {
    validMarkers: number[];
    invalidMarkers: number[];
    missingMarkers: boolean;
    checkedSentences: number;
    unsupportedSentences: { sentence: string; markers: number[]; supported: boolean }[];
  };
  timings: { rewriteMs: number | null; generateMs: number | null; totalMs: number };
}

interface Passage {
  marker: number;
  placeMarker: number;
  chunkId: string;
}

async function ask(input: Record<string, unknown>): Promise<Answer> {
  return (await stack.query<{ ask: Answer }>(ASK, { input: { projectId, ...input } })).ask;
}

async function streamEvents(body: Record<string, unknown>) {
  const response = await fetch(`${stack.url}/v1/projects/${projectId}/ask/stream`, {
    method: 'POST',
    headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => ({
      event: /^event: (.+)$/m.exec(block)![1],
      data: JSON.parse(/^data: (.+)$/m.exec(block)![1]) as Record<string, unknown>,
    }));
}

/** The api's count of LLM calls of one kind that ended well (its Prometheus metrics). */
async function llmCallsOk(operation: 'complete' | 'stream'): Promise<number> {
  const response = await fetch(`${stack.url}/metrics`);
  expect(response.status).toBe(200);
  const metrics = await response.text();
  const line = new RegExp(
    `^trove_llm_request_duration_seconds_count\\{operation="${operation}",outcome="ok"\\} (\\d+)$`,
    'm',
  ).exec(metrics);
  return line ? Number(line[1]) : 0;
}

/** Every marker of an answer names a passage the model was given, and its citation is that passage. */
function expectCitesGivenPassages(result: Answer, passages: Passage[]) {
  const markers = [...result.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  expect(markers.length).toBeGreaterThan(0);
  const places = new Set(passages.map((p) => p.placeMarker));
  for (const marker of markers) expect(places.has(marker)).toBe(true);
  expect(new Set(result.citations.map((c) => c.marker))).toEqual(new Set(markers));
  for (const citation of result.citations) {
    expect(passages.find((p) => p.marker === citation.marker)?.chunkId).toBe(citation.chunkId);
  }
  expect(result.verification).toMatchObject({ invalidMarkers: [], missingMarkers: false });
}

beforeAll(async () => {
  await installLocalModel(MODEL);
  await stack.start();
  projectId = await stack.createProject('Local LLM e2e');
  const sample = (name: string) => readFileSync(join(ROOT, 'samples/quickstart', name), 'utf8');
  const runbook = await stack.upload(projectId, 'deploy-runbook.md', sample('deploy-runbook.md'));
  const basics = await stack.upload(projectId, 'search-basics.md', sample('search-basics.md'));
  runbookId = runbook.body.id as string;
  for (const id of [runbookId, basics.body.id as string]) {
    expect((await stack.settled(id)).status).toBe('READY');
  }
}, 900_000);
afterAll(() => stack.stop());

describe('ask with the local model (TROVE_LLM=local)', () => {
  it('streams retrieval, the model’s text and a verified answer whose markers name the passages given', async () => {
    const events = await streamEvents({ question: 'How do I roll back a release?' });
    expect(events[0].event).toBe('retrieval');
    expect(events.at(-1)!.event).toBe('done');
    const passages = events[0].data.passages as Passage[];
    const deltas = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data as { text: string; attempt: number });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.attempt === 1)).toBe(true);
    const done = events.at(-1)!.data as unknown as Answer;
    expect(done).toMatchObject({ mode: 'LLM', model: `local:${MODEL}` });
    expect(done.fallbackReason ?? null).toBeNull();
    expectCitesGivenPassages(done, passages);
    expect(done.citations.some((c) => c.documentId === runbookId)).toBe(true);
    expect(await llmCallsOk('stream')).toBeGreaterThan(0);
  });

  it('answers the same way without streaming (GraphQL)', async () => {
    const result = await ask({ question: 'How do I roll back a release?' });
    expect(result).toMatchObject({ mode: 'LLM', model: `local:${MODEL}`, fallbackReason: null });
    expect(result.verification.checkedSentences).toBeGreaterThan(
      result.verification.unsupportedSentences.length,
    );
    expect(result.timings.generateMs).toBeGreaterThan(0);
  });

  it('rewrites a follow-up with the same model into a bounded, standalone question', async () => {
    const first = await ask({ question: 'How do I roll back a release?', newThread: true });
    const rewritesBefore = await llmCallsOk('complete');
    const followUp = 'And how long does it take?';
    const result = await ask({ question: followUp, threadId: first.threadId });
    expect(await llmCallsOk('complete')).toBe(rewritesBefore + 1);
    expect(result.standaloneQuestion).toBeTruthy();
    expect(result.standaloneQuestion!.length).toBeLessThanOrEqual(500);
    expect(result.standaloneQuestion).not.toContain('\n');
    expect(result.standaloneQuestion).not.toBe(followUp);
    expect(result.timings.rewriteMs).toBeGreaterThan(0);
  });

  it('answers EXTRACTIVE, labelled, when the model passes its time budget', async () => {
    await stack.query(UPDATE, { input: { answers: { llmBudgetMs: 1 } } });
    try {
      const events = await streamEvents({ question: 'How do I roll back a release?' });
      const done = events.at(-1)!.data as unknown as Answer;
      expect(done).toMatchObject({
        mode: 'EXTRACTIVE',
        model: `local:${MODEL}`,
        fallbackReason: 'the model did not finish within the time budget of 1 ms',
      });
      expect(done.answer).toMatch(
        /^The language model gave no answer that the sources support\. Sentences quoted/,
      );
      expect(done.citations.some((c) => c.documentId === runbookId && /roll ?back/i.test(c.quote))).toBe(
        true,
      );
      // The quotes are the last attempt of the stream: a client replaces what the model began.
      const last = events.filter((e) => e.event === 'delta').at(-1)!.data as {
        text: string;
        attempt: number;
      };
      expect(last.text).toBe(done.answer);
      expect(last.attempt).toBeGreaterThan(1);
    } finally {
      await stack.query(UPDATE, { input: { reset: ['answers.llmBudgetMs'] } });
    }
  });
});
