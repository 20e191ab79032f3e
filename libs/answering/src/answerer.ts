import type { TokenCounter } from '@trove/chunking';
import {
  type EmbeddingProvider,
  type LlmMessage,
  type LlmProvider,
  type LlmRequest,
  type SearchHit,
  SearchMode,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { SearchCallOptions, SearchRequest } from '@trove/search';
import {
  type AnswerCitation,
  type AnswerEvent,
  AnswerMode,
  type AnswerPassage,
  type AnswerResult,
  type AnswerSettings,
  type AnswerTimings,
  type AnswerVerification,
  type AskRequest,
} from './answer';
import { budgetContext } from './context';
import { extractSentences, withMarker } from './extractive';
import {
  checkMarkers,
  removeInvalidMarkers,
  renumberMarkers,
  stripMarkers,
  withoutUnfinishedMarker,
} from './markers';
import { mergePlaces } from './places';
import { FALLBACK_MESSAGES } from './messages';
import { standaloneQuestion } from './question-rewrite';
import { ANSWER_PROMPT_ID, answerMessages, REFUSAL_TOKEN, stricterAnswerMessages } from './prompt-template';
import { answerSentences, checkSupport, supportingQuote } from './support';
import { type AnswerLanguage, cosine, questionLanguage } from './text';

/** What the answerer retrieves with: HybridSearch, or anything answering like it. */
export interface PassageSearch {
  search(request: SearchRequest, options?: SearchCallOptions): Promise<SearchHit[]>;
}

export interface AnswererDeps {
  search: PassageSearch;
  /** Embeds the question (relevance) and, for the checks, sentences. */
  embedder: EmbeddingProvider;
  /** Stored chunk vectors by chunk id (ChunkIndex.vectorsByChunkIds). */
  vectors: (chunkIds: string[], signal?: AbortSignal) => Promise<Map<string, number[]>>;
  /** Sizes the context as the model's tokenizer would, near enough (SegmenterTokenCounter). */
  tokenCounter: TokenCounter;
  /** The configured chat model; without one, answers use the configured fallback mode. */
  llm?: LlmProvider;
  /**
   * The model's context window and longest answer, in its tokens: the passages given to it are
   * cut to what is left of the window once the instructions, the question and the answer have
   * their room. Unset: the passages get `settings.contextTokens`.
   */
  llmLimits?: { contextTokens: number; maxTokens: number };
  /** The link a hit's citation opens (the API's CitationLinks.render). */
  citationUrl?: (hit: SearchHit) => string | undefined;
  settings: AnswerSettings;
}

const MAX_TOP_K = 50;
/** Tokens a chat format adds around the messages (ChatML: a few per message), kept free of passages. */
const CHAT_FORMAT_TOKENS = 32;

/**
 * Answers a question from a project's chunks: retrieve → keep passages above the relevance
 * threshold → number them within the context budget → write the answer (the LLM, or without one
 * the configured fallback) → verify its citations → report. The LLM is never called when nothing
 * passes the threshold or when none is configured.
 */
export class Answerer {
  constructor(private readonly deps: AnswererDeps) {}

  /** The whole answer at once. */
  async ask(request: AskRequest, options: { signal?: AbortSignal } = {}): Promise<AnswerResult> {
    for await (const event of this.stream(request, options)) {
      if (event.type === 'done') return event.result;
    }
    throw new TroveError(TroveErrorCode.Internal, 'the answer stream ended without a result');
  }

  /**
   * The answer as events: `retrieval` (the passages used, and the standalone question a
   * follow-up was rewritten into), `delta` (text as it is written), and `done` (the verified
   * result). Stopping the iteration (or aborting `signal`) stops generation.
   */
  async *stream(request: AskRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<AnswerEvent> {
    const started = performance.now();
    const { settings } = this.deps;
    const topK = request.topK ?? settings.topK;
    const threshold = request.threshold ?? settings.threshold;
    this.check(request, topK, threshold);
    const mode = this.modeFor(request);
    const language = questionLanguage(request.question);
    const own = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, own.signal]) : own.signal;
    const timings: Omit<AnswerTimings, 'totalMs'> = {};

    try {
      // LLM answers are budgeted in the model's own tokens when it can count them (a local model,
      // loaded meanwhile on the first question).
      const llmCounter = mode === AnswerMode.LLM ? this.modelTokenCounter() : undefined;
      // A follow-up in a thread is retrieved and answered as the question it stands for.
      const standalone = request.history?.length
        ? await timed(timings, 'rewriteMs', () =>
            standaloneQuestion(request.question, request.history!, {
              llm: this.deps.llm,
              timeoutMs: settings.rewriteTimeoutMs,
              signal,
            }),
          )
        : undefined;
      const question = standalone ?? request.question;
      // What the thread's earlier answers said: a follow-up's quotes add to it.
      const said = request.history?.map((turn) => turn.answer ?? '').join('\n');
      const [hits, questionVector] = await Promise.all([
        timed(timings, 'searchMs', () =>
          this.deps.search.search(
            {
              mode: SearchMode.HYBRID,
              ...request.search,
              projectId: request.projectId,
              query: question,
              limit: topK,
            },
            // The passages keep the reranker's features: the answer's record holds them for feedback.
            { signal, fusion: request.search?.fusion, features: true },
          ),
        ),
        timed(
          timings,
          'embedMs',
          async () => (await this.deps.embedder.embed([question], 'query', { signal }))[0],
        ),
      ]);
      const vectors = hits.length
        ? await this.deps.vectors(
            hits.map((h) => h.chunkId),
            signal,
          )
        : new Map();
      const relevant = hits
        .map((hit) => ({ hit, relevance: relevanceOf(hit, vectors.get(hit.chunkId), questionVector) }))
        .filter((r) => r.relevance >= threshold - crossLingualAllowance(language, r.hit.text));
      const counter = (await llmCounter) ?? this.deps.tokenCounter;
      const passages = this.context(
        relevant,
        mode === AnswerMode.LLM ? this.passageBudget(question, language, counter) : settings.contextTokens,
        counter,
      );
      yield {
        type: 'retrieval',
        passages,
        ...(standalone !== undefined && { standaloneQuestion: standalone }),
      };

      const finish = (result: Omit<AnswerResult, 'timings' | 'language'>): AnswerEvent => ({
        type: 'done',
        result: {
          ...(standalone !== undefined && { standaloneQuestion: standalone }),
          ...result,
          language,
          timings: { ...timings, totalMs: ms(performance.now() - started) },
        },
      });
      if (passages.length === 0 || mode === AnswerMode.INSUFFICIENT_CONTEXT) {
        const answer = FALLBACK_MESSAGES[language].insufficientContext;
        yield { type: 'delta', text: answer, attempt: 1 };
        yield finish(insufficient(answer));
        return;
      }
      if (mode === AnswerMode.TOP_1) {
        const result = this.top1(question, passages[0], language);
        yield { type: 'delta', text: result.answer, attempt: 1 };
        yield finish(result);
        return;
      }
      if (mode === AnswerMode.EXTRACTIVE) {
        const result = await timed(timings, 'generateMs', () =>
          this.extractive(question, questionVector, passages, language, signal, { said }),
        );
        yield { type: 'delta', text: result.answer, attempt: 1 };
        const verification = await timed(timings, 'verifyMs', () =>
          this.verify(result.answer, mergePlaces(passages).passages, vectors, signal),
        );
        yield finish({ ...result, verification: { ...verification, retried: false } });
        return;
      }

      // LLM: one attempt, and one stricter retry when the citations are invalid or missing, within
      // the time budget; past it, or when the model fails, the extractive answer, labelled.
      const llm = this.deps.llm!;
      const generateStarted = performance.now();
      const budget = AbortSignal.timeout(settings.llmBudgetMs);
      const writing = AbortSignal.any([signal, budget]);
      const cited = { markers: passages.map((p) => p.marker), refusal: REFUSAL_TOKEN };
      let attempt = 1;
      let answer: string;
      let markers: ReturnType<typeof checkMarkers>;
      let retried = false;
      const fallback = async function* (this: Answerer, reason: string): AsyncGenerator<AnswerEvent> {
        const result = await this.extractive(question, questionVector, passages, language, signal, {
          heading: FALLBACK_MESSAGES[language].modelFallback,
          said,
        });
        // The model's time and the quotes' together: both went into this answer.
        timings.generateMs = ms(performance.now() - generateStarted);
        yield { type: 'delta', text: result.answer, attempt: attempt + 1 };
        const verification = await timed(timings, 'verifyMs', () =>
          this.verify(result.answer, mergePlaces(passages).passages, vectors, signal),
        );
        yield finish({
          ...result,
          model: llm.modelId,
          fallbackReason: reason,
          verification: { ...verification, retried },
        });
      };
      try {
        answer = yield* this.generate(
          llm,
          answerMessages(question, passages, language),
          attempt,
          writing,
          cited,
        );
        markers = checkMarkers(answer, passages.length);
        if (!isRefusal(answer) && (markers.invalid.length > 0 || markers.missing)) {
          retried = true;
          attempt = 2;
          const messages = stricterAnswerMessages(question, passages, language, {
            answer,
            invalid: markers.invalid,
            missing: markers.missing,
          });
          answer = yield* this.generate(llm, messages, attempt, writing, cited);
          markers = checkMarkers(answer, passages.length);
        }
      } catch (error) {
        if (signal.aborted) {
          throw new TroveError(TroveErrorCode.Cancelled, 'the answer was cancelled by its caller', {
            cause: error,
          });
        }
        const reason = budget.aborted
          ? `the model did not finish within the time budget of ${settings.llmBudgetMs} ms`
          : `the language model failed: ${describe(error)}`;
        yield* fallback.call(this, reason);
        return;
      }
      timings.generateMs = ms(performance.now() - generateStarted);
      if (isRefusal(answer)) {
        yield finish({
          ...insufficient(FALLBACK_MESSAGES[language].insufficientContext),
          promptId: ANSWER_PROMPT_ID,
          model: llm.modelId,
          verification: { ...emptyVerification(), retried },
        });
        return;
      }
      // Markers of passages that open the same place become one, so no citation is listed twice.
      const places = mergePlaces(passages);
      const cleaned = renumberMarkers(
        removeInvalidMarkers(answer, passages.length),
        (n) => places.canonical.get(n) ?? n,
      );
      const verification = await timed(timings, 'verifyMs', () =>
        this.verify(cleaned, places.passages, vectors, signal, { flagUncited: true }),
      );
      if (
        verification.checkedSentences > 0 &&
        verification.unsupportedSentences.length === verification.checkedSentences
      ) {
        // Nothing the model wrote is backed by what it cites: quotes serve the reader better.
        yield* fallback.call(this, "no sentence of the model's answer is supported by the passages it cites");
        return;
      }
      yield finish({
        answer: cleaned,
        mode: AnswerMode.LLM,
        insufficientContext: false,
        promptId: ANSWER_PROMPT_ID,
        model: llm.modelId,
        citations: this.citations(cleaned, places.passages, verification.validMarkers),
        verification: { ...verification, invalidMarkers: markers.invalid, retried },
      });
    } finally {
      // Whoever stops listening stops the model (and any search still running).
      own.abort();
    }
  }

  private check(request: AskRequest, topK: number, threshold: number): void {
    if (!request.question.trim()) throw new TroveError(TroveErrorCode.BadRequest, 'the question is empty');
    if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
      throw new TroveError(TroveErrorCode.BadRequest, `topK must be an integer between 1 and ${MAX_TOP_K}`);
    }
    if (!(threshold >= -1 && threshold <= 1)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'threshold must be between -1 and 1 (a cosine similarity)',
      );
    }
  }

  private modeFor(request: AskRequest): AnswerMode {
    const requested = request.mode ?? 'AUTO';
    if (requested === 'AUTO')
      return this.deps.llm ? AnswerMode.LLM : (this.deps.settings.fallbackMode as AnswerMode);
    if (requested === AnswerMode.LLM && !this.deps.llm) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'no language model is configured: ask with mode AUTO, EXTRACTIVE or TOP_1',
      );
    }
    return requested;
  }

  /**
   * The model's own token counter, when its provider has one; undefined (the estimate counts)
   * when it cannot be had, e.g. a model that does not load — its call then fails, and is handled.
   */
  private async modelTokenCounter(): Promise<TokenCounter | undefined> {
    return this.deps.llm?.tokenCounter?.().catch(() => undefined);
  }

  /**
   * Tokens of passages an LLM prompt may hold: the configured budget, cut to what the model's
   * window leaves once the instructions, the question, the chat format and the answer have room.
   */
  private passageBudget(question: string, language: AnswerLanguage, counter: TokenCounter): number {
    const { contextTokens } = this.deps.settings;
    const limits = this.deps.llmLimits;
    if (!limits) return contextTokens;
    const frame = answerMessages(question, [], language)
      .map((m) => m.content)
      .join('\n');
    const room = limits.contextTokens - limits.maxTokens - counter.count(frame) - CHAT_FORMAT_TOKENS;
    return Math.max(0, Math.min(contextTokens, room));
  }

  /** Numbers the relevant hits within the context budget. */
  private context(
    relevant: { hit: SearchHit; relevance: number }[],
    budget: number,
    counter: TokenCounter,
  ): AnswerPassage[] {
    const candidates = relevant.map(({ hit, relevance }) => ({
      title: hit.title,
      headingPath: hit.headingPath,
      text: hit.text,
      hit,
      relevance,
    }));
    const { passages } = budgetContext(candidates, budget, counter);
    const numbered = passages.map(({ marker, candidate, text, truncated }) => ({
      marker,
      chunkId: candidate.hit.chunkId,
      documentId: candidate.hit.documentId,
      title: candidate.hit.title,
      headingPath: candidate.hit.headingPath,
      text,
      // The renderer, when given, decides alone: a link it refuses (e.g. not http(s)) must not come back.
      citationUrl: this.deps.citationUrl ? this.deps.citationUrl(candidate.hit) : candidate.hit.citationUrl,
      relevance: round(candidate.relevance),
      score: candidate.hit.score,
      truncated,
      hit: candidate.hit,
    }));
    // The stream tells clients which marker each passage's place is cited under.
    const { canonical } = mergePlaces(numbered);
    return numbered.map((passage) => ({ ...passage, placeMarker: canonical.get(passage.marker)! }));
  }

  /** One attempt of the model, its text streamed as `attempt`; the caller reads its failures. */
  private async *generate(
    llm: LlmProvider,
    messages: LlmMessage[],
    attempt: number,
    signal: AbortSignal,
    citedSentences: LlmRequest['citedSentences'],
  ): AsyncGenerator<AnswerEvent, string> {
    let text = '';
    for await (const event of llm.stream({ messages, signal, citedSentences })) {
      if (event.type === 'delta') {
        text += event.text;
        yield { type: 'delta', text: event.text, attempt };
      } else {
        text = event.text || text;
      }
    }
    return withoutUnfinishedMarker(text.trim());
  }

  private top1(question: string, passage: AnswerPassage, language: AnswerLanguage) {
    const answer = `${FALLBACK_MESSAGES[language].top1}\n\n${withMarker(passage.text.trim(), passage.marker)}`;
    return {
      answer,
      mode: AnswerMode.TOP_1,
      insufficientContext: false,
      citations: [citation(passage, supportingQuote(passage.text, [question]))],
      verification: { ...emptyVerification(), validMarkers: [passage.marker] },
    };
  }

  private async extractive(
    question: string,
    questionVector: number[],
    passages: AnswerPassage[],
    language: AnswerLanguage,
    signal: AbortSignal,
    { heading = FALLBACK_MESSAGES[language].extractive, said }: { heading?: string; said?: string } = {},
  ) {
    const { extractiveChunks, extractiveSentences } = this.deps.settings;
    const sentences = await extractSentences(
      question,
      questionVector,
      passages.slice(0, extractiveChunks).map((p) => ({
        marker: p.marker,
        documentId: p.documentId,
        position: p.hit.position,
        text: p.text,
        title: p.title,
        headingPath: p.headingPath,
      })),
      this.deps.embedder,
      extractiveSentences,
      signal,
      said,
    );
    // Sentences of passages that open the same place are cited under that place's first marker.
    const { canonical } = mergePlaces(passages);
    const cited = sentences.map((s) => ({ ...s, marker: canonical.get(s.marker) ?? s.marker }));
    const lines = cited.map((s) => withMarker(s.text, s.marker));
    const answer = `${heading}\n\n${lines.join('\n')}`;
    const markers = [...new Set(cited.map((s) => s.marker))].sort((a, b) => a - b);
    const citations = markers.map((marker) => {
      const quoted = cited.filter((s) => s.marker === marker).map((s) => s.text);
      // A table row is quoted with its header line: such quotes stay on lines of their own.
      const quote = quoted.join(quoted.some((q) => q.includes('\n')) ? '\n' : ' ');
      return citation(passages[marker - 1], quote);
    });
    return { answer, mode: AnswerMode.EXTRACTIVE, insufficientContext: false, citations };
  }

  /** Markers and the support of each cited sentence; `invalidMarkers` and `retried` are the caller's. */
  private async verify(
    answer: string,
    passages: AnswerPassage[],
    vectors: Map<string, number[]>,
    signal: AbortSignal,
    options: { flagUncited?: boolean } = {},
  ): Promise<AnswerVerification> {
    const markers = checkMarkers(answer, passages.length);
    const { supportMinLexical, supportMinSemantic } = this.deps.settings;
    const checks = await checkSupport(
      answer,
      passages.map((p) => ({ marker: p.marker, text: p.text, vector: vectors.get(p.chunkId) })),
      this.deps.embedder,
      { minLexical: supportMinLexical, minSemantic: supportMinSemantic, flagUncited: options.flagUncited },
      signal,
    );
    return {
      validMarkers: markers.valid,
      invalidMarkers: [],
      missingMarkers: markers.missing,
      retried: false,
      checkedSentences: checks.length,
      unsupportedSentences: checks.filter((c) => !c.supported),
    };
  }

  /** One citation per valid marker used, in marker order, quoting what supports its sentences. */
  private citations(answer: string, passages: AnswerPassage[], markers: number[]): AnswerCitation[] {
    const sentences = answerSentences(answer);
    return [...markers]
      .sort((a, b) => a - b)
      .map((marker) => {
        const passage = passages[marker - 1];
        const claims = sentences.filter((s) => checkMarkers(s, passages.length).valid.includes(marker));
        return citation(passage, supportingQuote(passage.text, claims));
      });
  }
}

function citation(passage: AnswerPassage, quote: string): AnswerCitation {
  return {
    marker: passage.marker,
    chunkId: passage.chunkId,
    documentId: passage.documentId,
    title: passage.title,
    headingPath: passage.headingPath,
    citationUrl: passage.citationUrl,
    quote,
    ...(passage.hit.page !== undefined && { page: passage.hit.page }),
    ...(passage.hit.ocr && { ocr: true, ocrConfidence: passage.hit.ocrConfidence }),
  };
}

function insufficient(answer: string) {
  return {
    answer,
    mode: AnswerMode.INSUFFICIENT_CONTEXT,
    insufficientContext: true,
    citations: [],
    verification: emptyVerification(),
  };
}

function emptyVerification(): AnswerVerification {
  return {
    validMarkers: [],
    invalidMarkers: [],
    missingMarkers: false,
    retried: false,
    checkedSentences: 0,
    unsupportedSentences: [],
  };
}

/** The model's "the passages do not say" answer, whatever punctuation or markers it added. */
function isRefusal(answer: string): boolean {
  return stripMarkers(answer).replace(/[^\p{L}_]/gu, '') === REFUSAL_TOKEN;
}

/** How relevance is judged. */
export const RELEVANCE_RULES = {
  /**
   * Subtracted from the threshold for a passage written in another script than the question:
   * the multilingual embedder scores a question and its answer in two languages lower than in
   * one, so without it a Russian question about an English page is refused. Chosen on the train
   * half of the answer-quality set (multilingual-e5-small, threshold 0.84): midway between the
   * best cross-language passage of an out-of-domain question (0.782) and the lowest of an
   * answerable cross-language one (0.788) — a thin gap, so re-measure it for another model.
   */
  crossLingualMargin: 0.055,
};

/** The threshold's allowance for a passage in another script than the question's. */
function crossLingualAllowance(question: AnswerLanguage, passage: string): number {
  return questionLanguage(passage) === question ? 0 : RELEVANCE_RULES.crossLingualMargin;
}

/**
 * Cosine of the question's and the chunk's embeddings; a chunk without a stored vector (none
 * should lack one) falls back to the kNN leg's score, which Elasticsearch reports as (1 + cos) / 2.
 */
function relevanceOf(hit: SearchHit, vector: number[] | undefined, question: number[]): number {
  if (vector) return cosine(question, vector);
  return hit.knn ? hit.knn.score * 2 - 1 : -1;
}

async function timed<T>(
  timings: Omit<AnswerTimings, 'totalMs'>,
  stage: keyof Omit<AnswerTimings, 'totalMs'>,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[stage] = ms(performance.now() - started) + (timings[stage] ?? 0);
  }
}

const ms = (n: number) => Math.round(n * 10) / 10;
const round = (n: number) => Math.round(n * 1000) / 1000;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
