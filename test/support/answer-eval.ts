/**
 * What `npm run eval -- --answers` (tools/eval/eval-answers.ts) and the answer-quality gate
 * (test/integration/answers/answer-quality.test.ts) share: the answer corpus's files, the
 * extractive Answerer over search built as the api builds it from the default settings, and the
 * run of a set of questions into scored outcomes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { Answerer, AnswerMode } from '@trove/answering';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { ANSWER_CORPUS, type AnswerOutcome, answerOutcome, type AnswerQuestion } from '@trove/evaluation';
import { ParserRegistry } from '@trove/parsing';
import { RAG_SCHEMA_DEFAULTS } from '@trove/rag-config';
import type { ChunkIndex } from '@trove/search';
import { sharedDocuments } from '@trove/testing';
import { shippedSearch } from './retrieval-gate';
import { ROOT } from './services';

/** The answer corpus's files, read from the repository and the shared documents. */
export function answerCorpusFiles(): { fileName: string; data: Buffer }[] {
  return ANSWER_CORPUS.map(({ fileName, source }) => {
    const [kind, path] = source.split(/:(.*)/s) as ['repo' | 'shared', string];
    return { fileName, data: readFileSync(kind === 'repo' ? join(ROOT, path) : sharedDocuments(path)) };
  });
}

/**
 * The Answerer as the api builds it from the default settings (search with its reranker, the
 * default answer settings), without a language model: the extractive answer, the mode that runs
 * offline. `index` is the chunk index `prefix` names (for the stored vectors the checks read).
 */
export function extractiveAnswerer(
  es: Client,
  prefix: string,
  embedder: EmbeddingProvider,
  index: ChunkIndex,
): Answerer {
  const tokenCounter = new SegmenterTokenCounter();
  return new Answerer({
    search: shippedSearch(es, prefix, embedder, { countTokens: (text) => tokenCounter.count(text) }),
    embedder,
    vectors: (chunkIds, signal) => index.vectorsByChunkIds(chunkIds, signal),
    tokenCounter,
    settings: RAG_SCHEMA_DEFAULTS.answers,
  });
}

/**
 * Indexes the answer corpus in-process under `projectId`, each file as a document whose id is its
 * file name: the Markdown parser and the default chunking the worker would apply, without Temporal.
 */
export async function indexAnswerCorpus(
  files: { fileName: string; data: Buffer }[],
  target: { index: ChunkIndex; embedder: EmbeddingProvider; projectId: string },
): Promise<void> {
  const parsers = ParserRegistry.default();
  const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
  for (const file of files) {
    const parsed = await parsers.parse({
      fileName: file.fileName,
      mediaType: 'text/markdown',
      data: file.data,
    });
    const chunks = chunker.chunk(parsed, { projectId: target.projectId, documentId: file.fileName });
    const vectors = await target.embedder.embed(
      chunks.map((c) => Chunker.embeddingText(c)),
      'passage',
    );
    await target.index.upsert(
      chunks.map((c, i) => ({ ...c, embedding: vectors[i] })),
      target.embedder.modelId,
    );
  }
  await target.index.refresh();
}

/** Each question asked in turn and scored; `documentName` maps a cited document id to its file name. */
export async function answerQuestions(
  answerer: Answerer,
  projectId: string,
  questions: readonly AnswerQuestion[],
  documentName: (documentId: string) => string = (id) => id,
  onAnswer?: (i: number, result: Awaited<ReturnType<Answerer['ask']>>, latencyMs: number) => void,
): Promise<AnswerOutcome[]> {
  const outcomes: AnswerOutcome[] = [];
  for (const [i, question] of questions.entries()) {
    const started = performance.now();
    const result = await answerer.ask({ projectId, question: question.question });
    const latencyMs = performance.now() - started;
    onAnswer?.(i, result, latencyMs);
    outcomes.push(
      answerOutcome(
        question,
        { ...result, insufficientContext: result.mode === AnswerMode.INSUFFICIENT_CONTEXT },
        documentName,
        latencyMs,
      ),
    );
  }
  return outcomes;
}
