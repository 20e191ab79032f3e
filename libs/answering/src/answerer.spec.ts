import { describe, expect, it } from 'vitest';
import {
  type LlmCompletion,
  type LlmProvider,
  type LlmRequest,
  type LlmStreamEvent,
  TroveErrorCode,
} from '@trove/domain';
import { AnswerMode, type AnswerEvent } from './answer';
import { SegmenterTokenCounter } from '@trove/chunking';
import { answererOver, hit, ScriptedLlm } from './fakes.testing';
import { ANSWER_PROMPT_ID, answerMessages, passageBlock } from './prompt-template';
import { REWRITE_LIMITS } from './question-rewrite';

const rollback = hit(
  'rollback',
  'To roll back a release, run deployctl rollback and confirm the prompt. A rollback never reverts the database schema.',
  { position: 3 },
);
const schedule = hit(
  'schedule',
  'Releases go out every Tuesday from the main branch. The pipeline tags each release and builds images.',
  { position: 1 },
);
const backups = hit('backups', 'Database backups run every night at 02:00 UTC and are kept for thirty days.');
const HITS = [rollback, schedule, backups];

const QUESTION = 'How do I roll back a release with deployctl?';

/** Writes its first words, then nothing until its call is aborted. */
class StalledLlm implements LlmProvider {
  readonly modelId = 'fake:stalled';
  signal?: AbortSignal;

  constructor(private readonly start: string) {}

  complete(): Promise<LlmCompletion> {
    return Promise.reject(new Error('not used'));
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.signal = request.signal;
    yield { type: 'delta', text: this.start };
    await new Promise((_, reject) => {
      if (request.signal?.aborted) reject(new Error('aborted'));
      request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}

async function collect(events: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const all: AnswerEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('Answerer with a language model', () => {
  it('keeps an answer whose markers name given passages, with citations, quotes and timings', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback and confirm the prompt [1]. Releases go out every Tuesday [2].',
    ]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });

    expect(result.mode).toBe(AnswerMode.LLM);
    expect(result.promptId).toBe(ANSWER_PROMPT_ID);
    expect(result.model).toBe('fake:scripted');
    expect(result.verification).toMatchObject({
      validMarkers: [1, 2],
      invalidMarkers: [],
      retried: false,
      missingMarkers: false,
      checkedSentences: 2,
      unsupportedSentences: [],
    });
    expect(result.citations.map((c) => [c.marker, c.chunkId, c.citationUrl])).toEqual([
      [1, 'chk_rollback', 'https://example.com/rollback'],
      [2, 'chk_schedule', 'https://example.com/schedule'],
    ]);
    expect(result.citations[0].quote).toBe(
      'To roll back a release, run deployctl rollback and confirm the prompt.',
    );
    expect(result.citations[1].quote).toBe('Releases go out every Tuesday from the main branch.');
    expect(llm.requests).toHaveLength(1);
    // The model saw the numbered passages with their titles and heading paths.
    expect(llm.requests[0].messages[1].content).toContain('[1] rollback › Section\nTo roll back a release');
    expect(result.timings.generateMs).toBeGreaterThanOrEqual(0);
    expect(result.timings.searchMs).toBeGreaterThanOrEqual(0);
    expect(result.timings.verifyMs).toBeGreaterThanOrEqual(0);
  });

  it('asks once more with a stricter prompt when a marker names no passage, and keeps the good retry', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback [7].',
      'Run deployctl rollback and confirm the prompt [1].',
    ]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });

    expect(llm.requests).toHaveLength(2);
    const retry = llm.requests[1].messages;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Run deployctl rollback [7].' });
    expect(retry.at(-1)!.content).toContain('It cited [7], which is not among the passages.');
    expect(retry.at(-1)!.content).toContain('the only valid citations are [1], [2]');
    expect(result.answer).toBe('Run deployctl rollback and confirm the prompt [1].');
    expect(result.verification).toMatchObject({ retried: true, invalidMarkers: [], validMarkers: [1] });
  });

  it('retries an answer without any marker', async () => {
    const llm = new ScriptedLlm(['Run deployctl rollback.', 'Run deployctl rollback [1].']);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(llm.requests[1].messages.at(-1)!.content).toContain('It cited no passage.');
    expect(result.verification).toMatchObject({ retried: true, missingMarkers: false, validMarkers: [1] });
  });

  it('removes markers still invalid after the retry and flags them', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback [9].',
      'Run deployctl rollback [1, 9]. Confirm the prompt [5].',
    ]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.answer).toBe('Run deployctl rollback [1]. Confirm the prompt.');
    expect(result.verification).toMatchObject({ retried: true, invalidMarkers: [9, 5], validMarkers: [1] });
    expect(result.citations.map((c) => c.marker)).toEqual([1]);
  });

  it('flags a cited sentence its chunk does not support, lexically or semantically', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback and confirm the prompt [1]. Kubernetes autoscaling doubles the replica count [1].',
    ]);
    const { answerer, embedder } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.verification.checkedSentences).toBe(2);
    expect(result.verification.unsupportedSentences).toEqual([
      {
        sentence: 'Kubernetes autoscaling doubles the replica count.',
        markers: [1],
        lexicalOverlap: 0,
        semanticSimilarity: 0,
        supported: false,
      },
    ]);
    // Only the doubtful sentence was embedded for the semantic check.
    expect(embedder.calls.at(-1)).toEqual(['Kubernetes autoscaling doubles the replica count.']);
  });

  it('accepts a paraphrase by its embedding when its words differ', async () => {
    const llm = new ScriptedLlm(['The schema is never reverted by a rollback, says the release guide [1].']);
    const { answerer } = answererOver(HITS, {
      llm,
      settings: { supportMinLexical: 0.9, supportMinSemantic: 0.3 },
    });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.verification.checkedSentences).toBe(1);
    expect(result.verification.unsupportedSentences).toEqual([]);
  });

  it('turns the model saying the passages do not answer into INSUFFICIENT_CONTEXT', async () => {
    const llm = new ScriptedLlm(['INSUFFICIENT_CONTEXT']);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'Как откатить релиз через deployctl?',
    });
    expect(result).toMatchObject({
      mode: AnswerMode.INSUFFICIENT_CONTEXT,
      insufficientContext: true,
      language: 'ru',
      answer: 'В базе знаний недостаточно информации, чтобы ответить на этот вопрос.',
      citations: [],
    });
    expect(llm.requests).toHaveLength(1);
  });

  it('asks the model to answer in the language of the question', async () => {
    const llm = new ScriptedLlm(['运行 deployctl rollback [1]。']);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: '如何使用部署工具回滚一个版本？请说明 deployctl 的用法',
      threshold: 0,
    });
    expect(result.language).toBe('zh');
    expect(llm.requests[0].messages[0].content).toContain('Write the answer in Chinese');
  });

  it('never calls the model when no passage reaches the threshold', async () => {
    const llm = new ScriptedLlm([]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: 'Who painted the Mona Lisa?' });
    expect(result.mode).toBe(AnswerMode.INSUFFICIENT_CONTEXT);
    expect(result.insufficientContext).toBe(true);
    expect(llm.requests).toHaveLength(0);
  });

  it('streams retrieval, the deltas and the verified result, in that order', async () => {
    const llm = new ScriptedLlm(['Run deployctl rollback and confirm the prompt [1].']);
    const { answerer } = answererOver(HITS, { llm });
    const events = await collect(answerer.stream({ projectId: 'prj_test', question: QUESTION }));
    expect(events[0].type).toBe('retrieval');
    expect(events.at(-1)!.type).toBe('done');
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((d) => (d.type === 'delta' ? d.text : '')).join('')).toBe(
      'Run deployctl rollback and confirm the prompt [1].',
    );
    const retrieval = events[0].type === 'retrieval' ? events[0].passages : [];
    expect(retrieval.map((p) => [p.marker, p.chunkId])).toEqual([
      [1, 'chk_rollback'],
      [2, 'chk_schedule'],
    ]);
  });

  it('aborts the model when the listener stops reading', async () => {
    const llm = new ScriptedLlm(
      ['Run deployctl rollback and confirm the prompt, then post in the channel [1].'],
      5,
    );
    const { answerer } = answererOver(HITS, { llm });
    for await (const event of answerer.stream({ projectId: 'prj_test', question: QUESTION })) {
      if (event.type === 'delta') break;
    }
    expect(llm.requests[0].signal?.aborted).toBe(true);
  });

  it('asks for cited sentences naming exactly the passages given', async () => {
    const llm = new ScriptedLlm(['Run deployctl rollback and confirm the prompt [1].']);
    const { answerer } = answererOver(HITS, { llm });
    await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(llm.requests[0].citedSentences).toEqual({ markers: [1, 2], refusal: 'INSUFFICIENT_CONTEXT' });
  });

  it('flags a sentence that cites nothing, and keeps the answer while another is supported', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback and confirm the prompt [1]. Good luck with the release.',
    ]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.mode).toBe(AnswerMode.LLM);
    expect(result.verification.checkedSentences).toBe(2);
    expect(result.verification.unsupportedSentences).toEqual([
      { sentence: 'Good luck with the release.', markers: [], lexicalOverlap: 0, supported: false },
    ]);
  });

  it('budgets the passages in the model’s own tokens, within its window less the answer', async () => {
    // A tokenizer four times as fine as the estimate: only the first passage fits the window.
    const counter = new SegmenterTokenCounter();
    const fine = { count: (text: string) => counter.count(text) * 4 };
    const llm = Object.assign(new ScriptedLlm(['Run deployctl rollback [1].']), {
      tokenCounter: async () => fine,
    });
    const frame = fine.count(
      answerMessages(QUESTION, [], 'en')
        .map((m) => m.content)
        .join('\n'),
    );
    const first = fine.count(
      passageBlock({ marker: 1, title: 'rollback', headingPath: ['Section'], text: rollback.text }),
    );
    const { answerer } = answererOver(HITS, {
      llm,
      // Room for the first passage and a little: the second one does not fit.
      llmLimits: { contextTokens: frame + 32 + 100 + first + 10, maxTokens: 100 },
    });
    const events = await collect(answerer.stream({ projectId: 'prj_test', question: QUESTION }));
    const retrieval = events[0].type === 'retrieval' ? events[0].passages : [];
    expect(retrieval.map((p) => p.chunkId)).toEqual(['chk_rollback']);
    expect(llm.requests[0].citedSentences?.markers).toEqual([1]);
  });

  it('answers EXTRACTIVE, labelled, when the model passes its time budget, and stops it', async () => {
    const llm = new StalledLlm('Run deployctl rollback');
    const { answerer } = answererOver(HITS, { llm, settings: { llmBudgetMs: 200 } });
    const events = await collect(answerer.stream({ projectId: 'prj_test', question: QUESTION }));
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error('no result');
    expect(done.result).toMatchObject({
      mode: AnswerMode.EXTRACTIVE,
      model: 'fake:stalled',
      fallbackReason: 'the model did not finish within the time budget of 200 ms',
    });
    expect(done.result.answer).toMatch(
      /^The language model gave no answer that the sources support\. Sentences quoted/,
    );
    expect(done.result.citations.length).toBeGreaterThan(0);
    // The model's partial text was attempt 1; the quotes start over as attempt 2.
    const deltas = events.flatMap((e) => (e.type === 'delta' ? [e] : []));
    expect(deltas[0]).toEqual({ type: 'delta', text: 'Run deployctl rollback', attempt: 1 });
    expect(deltas.at(-1)).toMatchObject({ attempt: 2, text: done.result.answer });
    expect(llm.signal?.aborted).toBe(true);
  });

  it('answers EXTRACTIVE, labelled, when the model fails', async () => {
    const llm = new ScriptedLlm([]);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.mode).toBe(AnswerMode.EXTRACTIVE);
    expect(result.fallbackReason).toBe('the language model failed: the scripted model has no more answers');
  });

  it('answers EXTRACTIVE, labelled, when nothing the model wrote is supported', async () => {
    const llm = new ScriptedLlm(['Kubernetes autoscaling doubles the replica count [1].']);
    const { answerer } = answererOver(HITS, { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.mode).toBe(AnswerMode.EXTRACTIVE);
    expect(result.fallbackReason).toBe(
      "no sentence of the model's answer is supported by the passages it cites",
    );
    expect(result.verification.unsupportedSentences).toEqual([]);
  });

  it('still fails as CANCELLED when the caller goes away while the model writes', async () => {
    const llm = new StalledLlm('Run');
    const { answerer } = answererOver(HITS, { llm });
    const caller = new AbortController();
    const stream = answerer.stream({ projectId: 'prj_test', question: QUESTION }, { signal: caller.signal });
    const failure = (async () => {
      for await (const event of stream) if (event.type === 'delta') caller.abort();
    })();
    await expect(failure).rejects.toMatchObject({ code: TroveErrorCode.Cancelled });
  });

  it('refuses mode LLM when no model is configured', async () => {
    const { answerer } = answererOver(HITS);
    await expect(
      answerer.ask({ projectId: 'prj_test', question: QUESTION, mode: AnswerMode.LLM }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
    });
  });
});

describe('Answerer without a language model', () => {
  it('answers EXTRACTIVE by default: the best sentences with markers, in reading order, labelled', async () => {
    const { answerer } = answererOver(HITS, { settings: { extractiveSentences: 2 } });
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'How do I roll back a release with deployctl, and when do releases go out?',
    });
    expect(result.mode).toBe(AnswerMode.EXTRACTIVE);
    expect(result.insufficientContext).toBe(false);
    // "schedule" sits earlier in its document than "rollback" but ranked lower: documents keep
    // their rank order, so the rollback sentence comes first.
    expect(result.answer).toBe(
      'Quoted from your documents (no language model wrote this answer):\n\n' +
        'To roll back a release, run deployctl rollback and confirm the prompt [1].\n' +
        'Releases go out every Tuesday from the main branch [2].',
    );
    expect(result.citations.map((c) => [c.marker, c.quote])).toEqual([
      [1, 'To roll back a release, run deployctl rollback and confirm the prompt.'],
      [2, 'Releases go out every Tuesday from the main branch.'],
    ]);
    expect(result.verification).toMatchObject({
      validMarkers: [1, 2],
      unsupportedSentences: [],
      checkedSentences: 2,
    });
  });

  it('marks a citation of scanned text as OCR, with its confidence and page', async () => {
    const scan = hit('scan', 'The pump station warranty lasts five years from the date of installation.', {
      page: 3,
      ocr: true,
      ocrConfidence: 91,
    });
    const { answerer } = answererOver([scan, HITS[2]]);
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'How long is the pump station warranty?',
    });
    expect(result.citations[0]).toMatchObject({
      documentId: 'doc_scan',
      page: 3,
      ocr: true,
      ocrConfidence: 91,
    });
  });

  it('orders the sentences of one document by their place in it', async () => {
    const later = hit('later', 'Confirm the rollback prompt before you leave the deploy dashboard.', {
      documentId: 'doc_guide',
      position: 5,
    });
    const earlier = hit('earlier', 'Open the deploy dashboard and start the rollback of the release.', {
      documentId: 'doc_guide',
      position: 2,
    });
    const { answerer } = answererOver([later, earlier], { settings: { extractiveSentences: 2 } });
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'How do I run a rollback from the deploy dashboard?',
    });
    expect(result.answer.split('\n').slice(2)).toEqual([
      'Open the deploy dashboard and start the rollback of the release [2].',
      'Confirm the rollback prompt before you leave the deploy dashboard [1].',
    ]);
  });

  it('answers TOP_1 with the best passage, marked as such', async () => {
    const { answerer } = answererOver(HITS, { settings: { fallbackMode: AnswerMode.TOP_1 } });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.mode).toBe(AnswerMode.TOP_1);
    expect(result.answer).toBe(
      'Quoted as it is from the most relevant passage (no language model wrote this answer):\n\n' +
        'To roll back a release, run deployctl rollback and confirm the prompt. A rollback never reverts the database schema [1].',
    );
    expect(result.citations).toHaveLength(1);
    expect(result.citations[0]).toMatchObject({ marker: 1, chunkId: 'chk_rollback' });
  });

  it('says the knowledge base does not hold enough, in the language of the question', async () => {
    const { answerer } = answererOver(HITS);
    const answers = await Promise.all(
      ['Who painted the Mona Lisa?', 'Кто написал «Мону Лизу»?', '谁画了蒙娜丽莎？'].map((question) =>
        answerer.ask({ projectId: 'prj_test', question }),
      ),
    );
    expect(answers.map((a) => [a.mode, a.language, a.answer])).toEqual([
      [
        AnswerMode.INSUFFICIENT_CONTEXT,
        'en',
        'The knowledge base does not hold enough information to answer this question.',
      ],
      [
        AnswerMode.INSUFFICIENT_CONTEXT,
        'ru',
        'В базе знаний недостаточно информации, чтобы ответить на этот вопрос.',
      ],
      [AnswerMode.INSUFFICIENT_CONTEXT, 'zh', '知识库中没有足够的信息来回答这个问题。'],
    ]);
  });

  it('labels fallback answers in the language of the question', async () => {
    const ru = hit('ru', 'Откатите релиз командой deployctl rollback и сообщите в канал инцидентов.');
    const { answerer } = answererOver([ru]);
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'Как откатить релиз командой deployctl?',
    });
    expect(result.answer).toBe(
      'Цитаты из ваших документов (ответ написан не языковой моделью):\n\n' +
        'Откатите релиз командой deployctl rollback и сообщите в канал инцидентов [1].',
    );
    const zh = hit('zh', '使用 deployctl rollback 命令回滚版本，然后在事故频道中通知大家。');
    const chinese = await answererOver([zh]).answerer.ask({
      projectId: 'prj_test',
      question: '如何使用 deployctl 回滚版本？',
      threshold: 0,
    });
    expect(chinese.answer).toBe(
      '引自您的文档（此回答并非由语言模型撰写）：\n\n' +
        '使用 deployctl rollback 命令回滚版本，然后在事故频道中通知大家 [1]。',
    );
  });

  it('uses the request threshold and topK over the configured ones, and passes search options through', async () => {
    const { answerer, searches } = answererOver(HITS);
    const strict = await answerer.ask({
      projectId: 'prj_test',
      question: QUESTION,
      threshold: 0.99,
      topK: 2,
      search: { fusion: { method: 'convex', vectorWeight: 0.7 } },
    });
    expect(strict.mode).toBe(AnswerMode.INSUFFICIENT_CONTEXT);
    expect(searches[0][0]).toMatchObject({
      projectId: 'prj_test',
      query: QUESTION,
      limit: 2,
      mode: 'HYBRID',
    });
    expect(searches[0][1]?.fusion).toEqual({ method: 'convex', vectorWeight: 0.7 });
  });

  it('refuses an empty question and out-of-range topK or threshold with BAD_REQUEST', async () => {
    const { answerer } = answererOver(HITS);
    for (const request of [
      { question: '  ' },
      { question: QUESTION, topK: 0 },
      { question: QUESTION, topK: 51 },
      { question: QUESTION, threshold: 2 },
    ]) {
      await expect(answerer.ask({ projectId: 'prj_test', ...request })).rejects.toMatchObject({
        code: TroveErrorCode.BadRequest,
      });
    }
  });
});

describe('citations of one place', () => {
  // Two chunks of one section: one document, one link.
  const steps = hit('steps', 'To roll back a release, run deployctl rollback and confirm the prompt.', {
    documentId: 'doc_runbook',
    citation: { kind: 'source', documentId: 'doc_runbook', url: 'https://example.com/runbook#rollback' },
  });
  const more = hit('more', 'A rollback with deployctl never reverts the database schema of the release.', {
    documentId: 'doc_runbook',
    position: 1,
    citation: { kind: 'source', documentId: 'doc_runbook', url: 'https://example.com/runbook#rollback' },
  });

  it('lists an extractive answer’s citation once when its quotes come from two chunks of one place', async () => {
    const { answerer } = answererOver([steps, more], { settings: { extractiveSentences: 2 } });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.answer.split('\n').slice(2)).toEqual([
      'To roll back a release, run deployctl rollback and confirm the prompt [1].',
      'A rollback with deployctl never reverts the database schema of the release [1].',
    ]);
    expect(result.citations.map((c) => [c.marker, c.citationUrl, c.quote])).toEqual([
      [
        1,
        'https://example.com/runbook#rollback',
        'To roll back a release, run deployctl rollback and confirm the prompt. A rollback with deployctl never reverts the database schema of the release.',
      ],
    ]);
    // Each quote is checked against the place it is cited under.
    expect(result.verification).toMatchObject({ validMarkers: [1], unsupportedSentences: [] });
  });

  it('merges a model’s markers of one place into one citation', async () => {
    const llm = new ScriptedLlm([
      'Run deployctl rollback and confirm the prompt [1]. It never reverts the schema [2].',
    ]);
    const { answerer } = answererOver([steps, more], { llm });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.answer).toBe(
      'Run deployctl rollback and confirm the prompt [1]. It never reverts the schema [1].',
    );
    expect(result.citations.map((c) => c.marker)).toEqual([1]);
    expect(result.verification.unsupportedSentences).toEqual([]);
  });

  it('tells the stream which marker cites each passage’s place', async () => {
    const elsewhere = {
      ...more,
      chunkId: 'chk_elsewhere',
      citation: { ...more.citation!, url: 'https://example.com/runbook#schema' },
    };
    const { answerer } = answererOver([steps, more, elsewhere]);
    const [retrieval] = await collect(answerer.stream({ projectId: 'prj_test', question: QUESTION }));
    expect(
      retrieval.type === 'retrieval' && retrieval.passages.map((p) => [p.marker, p.placeMarker]),
    ).toEqual([
      [1, 1],
      [2, 1],
      [3, 3],
    ]);
  });

  it('keeps two citations of one document that open different places', async () => {
    const elsewhere = { ...more, citation: { ...more.citation!, url: 'https://example.com/runbook#schema' } };
    const { answerer } = answererOver([steps, elsewhere], { settings: { extractiveSentences: 2 } });
    const result = await answerer.ask({ projectId: 'prj_test', question: QUESTION });
    expect(result.citations.map((c) => c.marker)).toEqual([1, 2]);
  });
});

describe('the relevance threshold across languages', () => {
  // The multilingual embedder scores a question and its answer lower across two languages: the
  // cosines below are the shapes measured on the answer-quality set (threshold 0.84).
  const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos)];
  const english = hit('english', 'The staging MQTT broker listens on port 8884 of mqtt-stg.lab.internal.');
  const russian = hit('russian', 'Переговорная Ладога находится на четвёртом этаже и вмещает шесть человек.');
  function over(relevance: Record<string, number>) {
    const embedder = {
      dimensions: 2,
      modelId: 'fake:angles',
      ping: async () => undefined,
      embed: async (texts: string[]) => texts.map(() => [1, 0]),
    };
    return answererOver([english, russian], {
      embedder,
      vectors: async (ids) =>
        new Map(ids.filter((id) => id in relevance).map((id) => [id, at(relevance[id])])),
      settings: { threshold: 0.84 },
    }).answerer;
  }

  it('accepts a passage in another language a little under the threshold', async () => {
    const result = await over({ chk_english: 0.8 }).ask({
      projectId: 'prj_test',
      question: 'Какой порт у MQTT-брокера в staging?',
    });
    expect(result.mode).toBe(AnswerMode.EXTRACTIVE);
    expect(result.citations.map((c) => c.chunkId)).toEqual(['chk_english']);
  });

  it('still refuses a passage in the question’s own language under the threshold', async () => {
    const result = await over({ chk_russian: 0.8 }).ask({
      projectId: 'prj_test',
      question: 'На каком этаже переговорная Ладога?',
    });
    expect(result.mode).toBe(AnswerMode.INSUFFICIENT_CONTEXT);
  });

  it('still refuses an out-of-domain question whose best passage in another language is further off', async () => {
    const result = await over({ chk_english: 0.77 }).ask({
      projectId: 'prj_test',
      question: 'Как перевести деньги на карту другого банка?',
    });
    expect(result.mode).toBe(AnswerMode.INSUFFICIENT_CONTEXT);
  });
});

describe('a follow-up in a thread', () => {
  const history = [
    { question: 'How do I roll back a release in the Berlin office?', answer: 'Run deployctl [1].' },
  ];

  /** A model that is down: every call fails. */
  class DownLlm implements LlmProvider {
    readonly modelId = 'fake:down';
    calls = 0;
    complete(): Promise<LlmCompletion> {
      this.calls++;
      return Promise.reject(new Error('connect ECONNREFUSED'));
    }
    stream(): AsyncIterable<LlmStreamEvent> {
      return {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('connect ECONNREFUSED')) }),
      };
    }
    ping(): Promise<void> {
      return Promise.resolve();
    }
  }

  it('is retrieved and answered as the standalone question it stands for, which the events report', async () => {
    const { answerer, searches } = answererOver(HITS);
    const events = await collect(
      answerer.stream({ projectId: 'prj_test', question: 'and for the Russian office?', history }),
    );
    const standalone = 'How do I roll back a release in the Russian office?';
    expect(searches[0][0].query).toBe(standalone);
    expect(events[0]).toMatchObject({ type: 'retrieval', standaloneQuestion: standalone });
    const done = events.at(-1) as Extract<AnswerEvent, { type: 'done' }>;
    expect(done.result.standaloneQuestion).toBe(standalone);
    expect(done.result.timings.rewriteMs).toBeGreaterThanOrEqual(0);
  });

  it('quotes what the earlier answers did not say, keeping only the best quote if it was said', async () => {
    const quoted = (answer: string) => answer.split('\n').slice(2).filter(Boolean);
    const { answerer } = answererOver(HITS);
    const first = await answerer.ask({
      projectId: 'prj_test',
      question: QUESTION,
      mode: AnswerMode.EXTRACTIVE,
    });
    const followUp = await answerer.ask({
      projectId: 'prj_test',
      question: QUESTION,
      mode: AnswerMode.EXTRACTIVE,
      history: [{ question: QUESTION, answer: first.answer }],
    });
    expect(quoted(first.answer)).toEqual([
      'To roll back a release, run deployctl rollback and confirm the prompt [1].',
      'Releases go out every Tuesday from the main branch [2].',
      'The pipeline tags each release and builds images [2].',
    ]);
    // The best quote again (it answers the question), then only what the first answer left out.
    expect(quoted(followUp.answer)).toEqual([
      'To roll back a release, run deployctl rollback and confirm the prompt [1].',
      'A rollback never reverts the database schema [1].',
    ]);
  });

  it('leaves a question that stands alone (or one outside a thread) as asked', async () => {
    const { answerer, searches } = answererOver(HITS);
    const inThread = await answerer.ask({ projectId: 'prj_test', question: QUESTION, history });
    const alone = await answerer.ask({ projectId: 'prj_test', question: 'and for the Russian office?' });
    expect(searches.map(([request]) => request.query)).toEqual([QUESTION, 'and for the Russian office?']);
    expect(inThread.standaloneQuestion).toBeUndefined();
    expect(alone.standaloneQuestion).toBeUndefined();
    expect(alone.timings.rewriteMs).toBeUndefined();
  });

  it('is rewritten by the model when one is configured: a short prompt with the thread, a bounded reply', async () => {
    const llm = new ScriptedLlm(['Standalone question: "How do I roll back a release in Moscow?"']);
    const { answerer, searches } = answererOver(HITS, { llm });
    const result = await answerer.ask({
      projectId: 'prj_test',
      question: 'and there?',
      history,
      mode: AnswerMode.EXTRACTIVE,
    });
    expect(searches[0][0].query).toBe('How do I roll back a release in Moscow?');
    expect(result.standaloneQuestion).toBe('How do I roll back a release in Moscow?');
    expect(llm.requests[0]).toMatchObject({ maxTokens: REWRITE_LIMITS.maxTokens, temperature: 0 });
    expect(llm.requests[0].messages[1].content).toContain(
      'Q1: How do I roll back a release in the Berlin office?\nA1: Run deployctl.',
    );
    expect(llm.requests[0].messages[1].content).toContain('Last question: and there?');
  });

  it('falls back to the rules when the model fails, and takes its unchanged reply as "stands alone"', async () => {
    const down = new DownLlm();
    const failed = answererOver(HITS, { llm: down });
    const result = await failed.answerer.ask({
      projectId: 'prj_test',
      question: 'and for the Russian office?',
      history,
      mode: AnswerMode.EXTRACTIVE,
    });
    expect(down.calls).toBe(1);
    expect(result.standaloneQuestion).toBe('How do I roll back a release in the Russian office?');

    const echo = answererOver(HITS, { llm: new ScriptedLlm([QUESTION]) });
    const unchanged = await echo.answerer.ask({
      projectId: 'prj_test',
      question: QUESTION,
      history,
      mode: AnswerMode.EXTRACTIVE,
    });
    expect(unchanged.standaloneQuestion).toBeUndefined();
    expect(echo.searches[0][0].query).toBe(QUESTION);
  });
});
