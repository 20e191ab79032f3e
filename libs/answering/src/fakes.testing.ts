/**
 * Stand-ins for the answerer's dependencies in unit tests: a scripted chat model that records
 * what it was asked, a bag-of-words embedder (cosine follows shared words, so "related" and
 * "unrelated" mean something without a model), and a search returning fixed hits.
 */
import type {
  EmbeddingProvider,
  LlmCompletion,
  LlmProvider,
  LlmRequest,
  LlmStreamEvent,
  SearchHit,
} from '@trove/domain';
import { SegmenterTokenCounter } from '@trove/chunking';
import type { AnswerSettings } from './answer';
import { type AnswererDeps, Answerer, type PassageSearch } from './answerer';
import { contentWords } from './text';

/** Answers with the scripted texts in turn, streamed in small pieces; records every request. */
export class ScriptedLlm implements LlmProvider {
  readonly modelId = 'fake:scripted';
  readonly requests: LlmRequest[] = [];

  constructor(
    private readonly answers: string[],
    private readonly pieceDelayMs = 0,
  ) {}

  async complete(request: LlmRequest): Promise<LlmCompletion> {
    this.requests.push(request);
    return { text: this.next(), finishReason: 'stop' };
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.requests.push(request);
    const text = this.next();
    for (const piece of text.match(/.{1,8}/gsu) ?? []) {
      if (this.pieceDelayMs) await new Promise((resolve) => setTimeout(resolve, this.pieceDelayMs));
      if (request.signal?.aborted) throw new Error('aborted');
      yield { type: 'delta', text: piece };
    }
    yield { type: 'done', text, finishReason: 'stop' };
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  private next(): string {
    const answer = this.answers[this.requests.length - 1];
    if (answer === undefined) throw new Error('the scripted model has no more answers');
    return answer;
  }
}

const DIMENSIONS = 4096;

/** Hashes content words into a vector: texts sharing words have a high cosine, others about 0. */
export class BagOfWordsEmbedder implements EmbeddingProvider {
  readonly dimensions = DIMENSIONS;
  readonly modelId = 'fake:bag-of-words';
  readonly calls: string[][] = [];

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    return texts.map((text) => bagOfWords(text));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}

export function bagOfWords(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of contentWords(text)) {
    let hash = 7;
    for (const ch of word) hash = (hash * 31 + ch.codePointAt(0)!) % 1_000_003;
    vector[hash % DIMENSIONS] += 1;
  }
  return vector;
}

/** A search hit with what an answer uses; ids and citation derived from the name. */
export function hit(name: string, text: string, extra: Partial<SearchHit> = {}): SearchHit {
  return {
    chunkId: `chk_${name}`,
    documentId: `doc_${name}`,
    projectId: 'prj_test',
    title: name,
    headingPath: ['Section'],
    text,
    position: 0,
    score: 0.03,
    citation: { kind: 'source', documentId: `doc_${name}`, url: `https://example.com/${name}` },
    ...extra,
  };
}

export const TEST_SETTINGS: AnswerSettings = {
  topK: 8,
  threshold: 0.1,
  fallbackMode: 'EXTRACTIVE',
  contextTokens: 2000,
  supportMinLexical: 0.5,
  supportMinSemantic: 0.6,
  extractiveSentences: 3,
  extractiveChunks: 3,
  llmBudgetMs: 60_000,
  rewriteTimeoutMs: 8_000,
};

/** An answerer over fixed hits whose stored vectors are their bag-of-words vectors. */
export function answererOver(
  hits: SearchHit[],
  overrides: Partial<Omit<AnswererDeps, 'settings'>> & { settings?: Partial<AnswerSettings> } = {},
) {
  const embedder = new BagOfWordsEmbedder();
  const searches: Parameters<PassageSearch['search']>[] = [];
  const search: PassageSearch = {
    search: async (...args) => {
      searches.push(args);
      return hits.slice(0, args[0].limit);
    },
  };
  const vectors = async (ids: string[]) =>
    new Map(hits.filter((h) => ids.includes(h.chunkId)).map((h) => [h.chunkId, bagOfWords(h.text)]));
  const answerer = new Answerer({
    search,
    embedder,
    vectors,
    tokenCounter: new SegmenterTokenCounter(),
    citationUrl: (h) => (h.citation?.kind === 'source' ? h.citation.url : undefined),
    ...overrides,
    settings: { ...TEST_SETTINGS, ...overrides.settings },
  });
  return { answerer, embedder, searches };
}
