/**
 * `npm run eval -- --answers`: answer quality of `ask` on the answer-quality set (libs/evaluation:
 * questions over the bundled samples and MkDocs fixture pages, with the documents a citation may
 * name, plus out-of-domain questions). Ingests the corpus through the real worker and Temporal
 * into a persistent eval project (reused when it holds the same files), answers every question
 * with the Answerer as the API builds it from the default settings (search with its reranker;
 * test/support/answer-eval.ts, which the answer-quality gate of `npm test` shares), and reports
 * quotes, citation precision, the refusal rates, duplicates and answer latency — for the
 * extractive fallback, the only mode that runs without a model here — as JSON and as a section
 * of BENCHMARKS.md.
 *
 *   npm run eval -- --answers
 *   npm run eval -- --answers --answers-baseline <an earlier run's JSON>   (its answers as a "before" row)
 *   npm run eval -- --answers --answers-state "<what this work tree measures>"
 *   npm run eval -- --answers --answers-llm qwen2.5-coder-1.5b [--answers-split test]
 *       (a local model's answers beside the extractive ones, same run; its own section)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Answerer, AnswerMode } from '@trove/answering';
import { SegmenterTokenCounter } from '@trove/chunking';
import { answersSchema, type LlmConfig, llmSchema, localLlmSchema } from '@trove/config';
import { DocumentStatus, ingestWorkflowId, type LlmProvider } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  ANSWER_QUESTIONS,
  answerBreakdown,
  answerOutcome,
  type AnswerSplit,
  answerSplit,
  scoreAnswers,
} from '@trove/evaluation';
import { createLlmProvider, releaseLocalModels } from '@trove/llm';
import { RAG_SCHEMA_DEFAULTS } from '@trove/rag-config';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { answerCorpusFiles, answerQuestions, extractiveAnswerer, shippedSearch } from '@trove/test-support';
import { ingestDocument } from '@trove/workflows';
import { createWorker } from '@trove/worker';
import {
  currentStamp,
  localWorkerConfig,
  projectNamed,
  storeDocument,
  writeBenchmarkSections,
} from '@trove/tools-support';
import { answersLlmSection, type ModeRun } from './answers-llm-section';
import { type AnswerRun, answersSection, type StoredOutcome } from './answers-section';

const ROOT = join(__dirname, '..', '..');
/**
 * Index prefix, catalog schema and task queue: apart from the retrieval evals' `trove-eval`, so a
 * retrieval eval ingesting thousands of documents at the same time does not hold these up.
 */
const EVAL_NAME = 'trove-eval-answers';

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

export interface AnswerEvalOptions {
  /** The JSON of an earlier run (another state of the code) whose answers are shown as its own row. */
  baseline?: string;
  /** What this run measures; unset: the commit (and whether the work tree had changes). */
  state?: string;
  /** This run's row name: `after` beside a baseline, `this commit` alone. */
  label?: string;
  /** A local model (libs/llm catalogue) answering too, beside the extractive answers. */
  llm?: string;
  /** With `llm`: only this split's questions. */
  split?: AnswerSplit;
}

export async function runAnswerEval(options: AnswerEvalOptions = {}): Promise<void> {
  if (options.split && !['train', 'test'].includes(options.split)) {
    throw new Error(`--answers-split is train or test, not ${options.split}`);
  }
  const command = `npm run eval -- ${process.argv.slice(2).join(' ')}`.trim();
  // Read first: a wrong path fails before the corpus is ingested.
  const baseline = options.baseline
    ? (JSON.parse(readFileSync(options.baseline, 'utf8')) as { run?: AnswerRun }).run
    : undefined;
  if (options.baseline && !baseline?.outcomes) {
    throw new Error(`${options.baseline} holds no answers (a run of npm run eval -- --answers writes them)`);
  }
  const files = answerCorpusFiles();
  const corpusHash = createHash('sha256');
  for (const f of files) corpusHash.update(f.fileName).update('\0').update(f.data);
  // The name carries the content: an edited sample makes a new project instead of a stale one.
  const projectName = `eval answers ${corpusHash.digest('hex').slice(0, 12)}`;

  const config = localWorkerConfig(EVAL_NAME, join(ROOT, '.trove', 'eval', 'blobs'));
  const { worker, connection: workerConnection, catalog } = await createWorker(config);
  const running = worker.run();
  const es = createElasticsearchClient(config.elasticsearch.url);
  const connection = await Connection.connect({ address: config.temporal.address });
  const temporal = new TemporalClient({ connection });
  const blobs = new LocalBlobStore(config.storage.blobDir);
  try {
    const project = await projectNamed(catalog.projects, projectName);
    const existing = new Map(
      (await catalog.documents.pageDocuments(project.id, {}, { first: 500 })).items.map((d) => [
        d.fileName,
        d,
      ]),
    );
    const ids = new Map<string, string>();
    for (const file of files) {
      let record = existing.get(file.fileName);
      record ??= await storeDocument({ documents: catalog.documents, blobs }, project.id, file);
      ids.set(record.id, file.fileName);
      if (record.status === DocumentStatus.READY) continue;
      console.log(`[eval:answers] ingesting ${file.fileName}`);
      await temporal.workflow.execute(ingestDocument, {
        taskQueue: config.temporal.taskQueue,
        workflowId: ingestWorkflowId(record.id),
        args: [{ documentId: record.id }],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    }

    const settings = RAG_SCHEMA_DEFAULTS.answers;
    const embedder = createEmbeddingProvider(config.embedding);
    const index = new ChunkIndex(es, config.elasticsearch.indexPrefix, embedder.dimensions);
    const answerer = extractiveAnswerer(es, config.elasticsearch.indexPrefix, embedder, index);
    // Warm-up: connections and the embedder's first calls.
    await answerer.ask({ projectId: project.id, question: ANSWER_QUESTIONS[0].question });
    if (options.llm) {
      await compareWithModel(options.llm, options.split, {
        command,
        projectId: project.id,
        ids,
        files,
        extractive: answerer,
        generative: (llm, llmConfig) => {
          const tokenCounter = new SegmenterTokenCounter();
          return new Answerer({
            search: shippedSearch(es, config.elasticsearch.indexPrefix, embedder, {
              countTokens: (text) => tokenCounter.count(text),
            }),
            embedder,
            vectors: (chunkIds, signal) => index.vectorsByChunkIds(chunkIds, signal),
            tokenCounter,
            llm,
            llmLimits: { contextTokens: llmConfig.contextTokens, maxTokens: llmConfig.maxTokens },
            settings: answersSchema.parse({ rewriteTimeoutMs: 20_000 }),
          });
        },
      });
      return;
    }

    const loadAtStart = loadavg()[0];
    const modes: string[] = [];
    const outcomes = await answerQuestions(
      answerer,
      project.id,
      ANSWER_QUESTIONS,
      (id) => ids.get(id) ?? id,
      (i, result) => {
        if (i % 10 === 0) console.log(`[eval:answers] question ${i + 1} of ${ANSWER_QUESTIONS.length}`);
        modes.push(result.mode);
      },
    );
    const stored: StoredOutcome[] = outcomes.map((outcome, i) => ({
      question: outcome.question.question,
      mode: modes[i],
      refused: outcome.refused,
      citations: outcome.citations ?? [],
      unsupportedSentences: outcome.unsupportedSentences,
      latencyMs: Math.round(outcome.latencyMs),
    }));
    const details = outcomes.map((outcome, i) => ({
      question: outcome.question.question,
      expected: outcome.question.expected,
      mode: modes[i],
      cited: outcome.citedDocuments,
      latencyMs: Math.round(outcome.latencyMs),
    }));
    const scores = scoreAnswers(outcomes);
    const date = new Date().toISOString();
    const stamp = currentStamp(command);
    const run: AnswerRun = {
      label: options.label ?? (baseline ? 'after' : 'this commit'),
      state: options.state ?? `the code at commit ${stamp.commit}`,
      load: { start: loadAtStart, end: loadavg()[0], cores: cpus().length },
      outcomes: stored,
    };
    const report = {
      date,
      machine: { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30) },
      command,
      mode: 'EXTRACTIVE (no LLM configured)',
      project: { name: projectName, id: project.id },
      corpus: files.map((f) => f.fileName),
      settings,
      scores: {
        ...scores,
        citationPrecision: round(scores.citationPrecision),
        hitRate: round(scores.hitRate),
        inDomainRefusalRate: round(scores.inDomainRefusalRate),
        outOfDomainRefusalRate: round(scores.outOfDomainRefusalRate),
        p50Ms: Math.round(scores.p50Ms),
        p95Ms: Math.round(scores.p95Ms),
      },
      breakdown: answerBreakdown(outcomes),
      details,
      run,
    };
    const out = join(ROOT, '.trove', 'eval', `answers-${date.slice(0, 10)}.json`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`[eval:answers] ${JSON.stringify(report.scores)}`);
    for (const d of details) {
      const ok =
        d.expected.length === 0
          ? d.mode === 'INSUFFICIENT_CONTEXT'
          : d.cited.some((c) => d.expected.includes(c));
      if (!ok) console.log(`[eval:answers] miss: ${d.question} → ${d.mode} ${d.cited.join(', ')}`);
    }
    console.log(`[eval:answers] wrote ${out}`);
    writeBenchmarkSections(
      command,
      answersSection(baseline ? [baseline, run] : [run], ANSWER_QUESTIONS, {
        corpus: files.map((f) => f.fileName),
        settings: `the default answer settings (top ${settings.topK} passages, threshold ${settings.threshold}, ${settings.extractiveSentences} sentences from the top ${settings.extractiveChunks} passages)`,
      }),
    );
    console.log('[eval:answers] wrote its section of BENCHMARKS.md');
  } finally {
    // A SIGTERM (e.g. from `timeout`) has the Temporal runtime stop the worker already.
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await workerConnection.close();
    await connection.close();
    await catalog.lifecycle.close();
    await es.close();
  }
}

/**
 * `--answers-llm <model>`: the chosen questions answered by the extractive answerer and by one
 * with the local model, one after the other for each question (the same load for both), scored
 * alike; writes a JSON report and the section of `answers-llm-section.ts`.
 */
async function compareWithModel(
  model: string,
  split: AnswerSplit | undefined,
  run: {
    command: string;
    projectId: string;
    ids: Map<string, string>;
    files: { fileName: string }[];
    extractive: Answerer;
    generative: (llm: LlmProvider, config: LlmConfig) => Answerer;
  },
): Promise<void> {
  // As TROVE_LLM=local sets it up (its smaller window and answer), greedy so a run can be repeated.
  const llmConfig = llmSchema.parse({
    provider: 'local',
    model,
    contextTokens: 2048,
    maxTokens: 256,
    idleTimeoutMs: 60_000,
    temperature: 0,
  });
  const llm = createLlmProvider(llmConfig, localLlmSchema.parse({}))!;
  const loadStarted = performance.now();
  await llm.ping();
  console.log(`[eval:answers] ${llm.modelId} loaded in ${Math.round(performance.now() - loadStarted)} ms`);
  const generative = run.generative(llm, llmConfig);
  const questions = ANSWER_QUESTIONS.filter((q) => !split || answerSplit(q) === split);
  const runs: ModeRun[] = [
    { label: 'extractive (no model)', outcomes: [] },
    { label: llm.modelId, outcomes: [] },
  ];
  const loadAtStart = loadavg()[0];
  try {
    for (const [i, question] of questions.entries()) {
      for (const [r, answerer] of [run.extractive, generative].entries()) {
        const started = performance.now();
        const result = await answerer.ask({ projectId: run.projectId, question: question.question });
        const latencyMs = performance.now() - started;
        const outcome = answerOutcome(
          question,
          { ...result, insufficientContext: result.mode === AnswerMode.INSUFFICIENT_CONTEXT },
          (id) => run.ids.get(id) ?? id,
          latencyMs,
        );
        runs[r].outcomes.push({
          outcome,
          mode: result.mode,
          fallbackReason: result.fallbackReason,
          checkedSentences: result.verification.checkedSentences,
          unsupportedSentences: result.verification.unsupportedSentences.length,
        });
        if (r === 1) {
          console.log(
            `[eval:answers] ${i + 1}/${questions.length} ${(latencyMs / 1000).toFixed(1)} s ${result.mode}${result.fallbackReason ? ` (${result.fallbackReason})` : ''}: ${result.answer.slice(0, 160).replace(/\s+/g, ' ')}`,
          );
        }
      }
    }
  } finally {
    await releaseLocalModels();
  }
  const stamp = currentStamp(run.command);
  const load = `load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  const date = new Date().toISOString();
  const report = {
    date,
    command: run.command,
    model: llm.modelId,
    split: split ?? 'all',
    load,
    runs: runs.map((r) => ({
      label: r.label,
      scores: scoreAnswers(r.outcomes.map((o) => o.outcome)),
      answers: r.outcomes.map((o) => ({
        question: o.outcome.question.question,
        mode: o.mode,
        fallbackReason: o.fallbackReason,
        refused: o.outcome.refused,
        citations: o.outcome.citations,
        checkedSentences: o.checkedSentences,
        unsupportedSentences: o.unsupportedSentences,
        latencyMs: Math.round(o.outcome.latencyMs),
      })),
    })),
  };
  const out = join(ROOT, '.trove', 'eval', `answers-llm-${model}-${date.slice(0, 10)}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`[eval:answers] wrote ${out}`);
  writeBenchmarkSections(
    run.command,
    answersLlmSection(model, runs, {
      split: split ?? 'all',
      questions: questions.length,
      corpus: run.files.map((f) => f.fileName),
      settings: `${llm.modelId}: TROVE_LLM=local's window of ${llmConfig.contextTokens} tokens and answers of up to ${llmConfig.maxTokens}, temperature 0, the default time budget of ${answersSchema.parse({}).llmBudgetMs / 1000} s and ${localLlmSchema.parse({}).threads} thread(s)`,
      state: `the code at commit ${stamp.commit}`,
      load,
    }),
  );
  console.log('[eval:answers] wrote its section of BENCHMARKS.md');
}
