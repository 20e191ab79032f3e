import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod/v3';
import {
  MeDocument,
  RagConfigDocument,
  type RagConfigQuery,
  TroveApiError,
  UpdateRagConfigDocument,
} from '@trove/api-client';
import { RAG_SCHEMA_DEFAULTS, type RagSection, type RagSettings } from '@trove/rag-config';
import { configOutput, type ConfigOutput, setConfigOutput, type SetConfigOutput } from '../output-schemas';
import { renderConfig, renderConfigChanged } from '../render';
import type { ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';
import { type Holds, type SameKeys, TroveErrorCode } from '@trove/domain';

type RagConfig = RagConfigQuery['ragConfig'];

/** A tool's input for one settings section: one field per setting of its schema, no other. */
type SectionShape<S extends RagSection> = Record<keyof RagSettings[S], z.ZodTypeAny>;

/**
 * The settings as a tool returns them. Secrets are copied as the API masks them (`set`, `masked`)
 * and nothing else of theirs; the embedding server's URL is left out (it names internal hosts).
 */
export function configView(config: RagConfig): ConfigOutput {
  const secret = ({ set, masked }: { set: boolean; masked: string | null }) => ({ set, masked });
  const { embedding } = config.embedding.active;
  return {
    version: config.version,
    updatedAt: config.updatedAt,
    overridden: config.overridden,
    warnings: config.warnings,
    search: config.search,
    rerank: { ...config.rerank, apiKey: secret(config.rerank.apiKey) },
    answers: config.answers,
    llm: { ...config.llm, apiKey: secret(config.llm.apiKey) },
    chunking: config.chunking,
    embedding: {
      modelId: config.embedding.active.modelId,
      dimensions: config.embedding.active.dimensions,
      provider: embedding.provider,
      profile: embedding.profile,
      model: embedding.model,
    },
  };
}

/**
 * What get_config returns names exactly the settings of each schema (libs/config, through
 * @trove/rag-config): a setting added to or removed from one side only fails to compile here.
 * set_config's input is held to the same by `satisfies SectionShape` below.
 */
export type ConfigOutputMatchesSchemas = [
  Holds<SameKeys<ConfigOutput['search'], RagSettings['search']>>,
  Holds<SameKeys<ConfigOutput['rerank'], RagSettings['rerank']>>,
  Holds<SameKeys<ConfigOutput['llm'], RagSettings['llm']>>,
  Holds<SameKeys<ConfigOutput['answers'], RagSettings['answers']>>,
  Holds<SameKeys<ConfigOutput['chunking'], RagSettings['chunking']>>,
];

/** A setting's description with the default the settings schema gives it (the environment may set another). */
function withDefault(description: string, value: unknown): string {
  return value === undefined ? description : `${description} (default ${String(value)})`;
}

/** The description helpers of one section: each names the schema's default of its setting. */
function section<S extends RagSection>(name: S) {
  const defaults: RagSettings[S] = RAG_SCHEMA_DEFAULTS[name];
  const of = (setting: keyof RagSettings[S]) => defaults[setting];
  return {
    number: (setting: keyof RagSettings[S], description: string) =>
      z
        .number()
        .nullable()
        .optional()
        .describe(withDefault(description, of(setting))),
    int: (setting: keyof RagSettings[S], description: string) =>
      z
        .number()
        .int()
        .nullable()
        .optional()
        .describe(withDefault(description, of(setting))),
    string: (setting: keyof RagSettings[S], description: string) =>
      z
        .string()
        .nullable()
        .optional()
        .describe(withDefault(description, of(setting))),
  };
}

const search = section('search');
const rerank = section('rerank');
const answers = section('answers');
const llm = section('llm');
const chunking = section('chunking');

// As UpdateRagConfigInput: a setting left out stays, one given as null goes back to the environment's value.
export const ragSettingsInput = {
  search: z
    .object({
      fusion: search.string('fusion', 'rrf or convex'),
      rrfK: search.int('rrfK', 'rrf: k'),
      convexVectorWeight: search.number('convexVectorWeight', 'convex: weight of the vector leg, 0 to 1'),
      convexNormalization: search.string('convexNormalization', 'convex: minmax or zscore'),
    } satisfies SectionShape<'search'>)
    .strict()
    .optional(),
  rerank: z
    .object({
      provider: rerank.string('provider', 'none, learned, http or llm'),
      candidates: rerank.int('candidates', 'fused hits reranked'),
      maxChars: rerank.int('maxChars', 'characters of each passage the reranker sees'),
      model: rerank.string('model', 'http/llm reranker model'),
      url: rerank.string('url', 'http reranker endpoint'),
      timeoutMs: rerank.int('timeoutMs', 'reranker timeout'),
      apiKey: rerank.string('apiKey', 'http reranker key; stored sealed, never returned'),
    } satisfies SectionShape<'rerank'>)
    .strict()
    .optional(),
  answers: z
    .object({
      topK: answers.int('topK', 'passages retrieved for an answer, 1 to 50'),
      threshold: answers.number('threshold', 'least similarity a passage needs, -1 to 1'),
      fallbackMode: answers.string('fallbackMode', 'without a language model: EXTRACTIVE or TOP_1'),
      contextTokens: answers.int('contextTokens', 'token budget of the passages given to the model'),
      extractiveChunks: answers.int('extractiveChunks', 'EXTRACTIVE: passages quoted from'),
      extractiveSentences: answers.int('extractiveSentences', 'EXTRACTIVE: sentences quoted'),
      supportMinLexical: answers.number('supportMinLexical', 'citation check: least word overlap'),
      supportMinSemantic: answers.number('supportMinSemantic', 'citation check: least similarity'),
      llmBudgetMs: answers.int('llmBudgetMs', 'LLM answers: time budget, then the extractive answer'),
      rewriteTimeoutMs: answers.int(
        'rewriteTimeoutMs',
        'follow-up rewrite by the model: time, then the rules',
      ),
    } satisfies SectionShape<'answers'>)
    .strict()
    .optional(),
  llm: z
    .object({
      provider: llm.string('provider', 'none, openai (any OpenAI-compatible server), ollama or local'),
      baseUrl: llm.string('baseUrl', 'the model server’s URL'),
      model: llm.string('model', 'the model name (local: qwen2.5-coder-1.5b or smollm2-135m)'),
      temperature: llm.number('temperature', 'sampling temperature'),
      maxTokens: llm.int('maxTokens', 'longest answer, in tokens'),
      contextTokens: llm.int('contextTokens', 'the model’s context window'),
      timeoutMs: llm.int('timeoutMs', 'whole-answer timeout'),
      idleTimeoutMs: llm.int('idleTimeoutMs', 'longest pause between streamed tokens'),
      retries: llm.int('retries', 'retries of a failed call'),
      apiKey: llm.string('apiKey', 'the model server’s key; stored sealed, never returned'),
    } satisfies SectionShape<'llm'>)
    .strict()
    .optional(),
  chunking: z
    .object({
      targetTokens: chunking.int('targetTokens', 'chunk size in tokens'),
      overlapTokens: chunking.int('overlapTokens', 'tokens repeated between consecutive chunks'),
      minTokens: chunking.int('minTokens', 'smallest chunk'),
    } satisfies SectionShape<'chunking'>)
    .strict()
    .optional(),
  reset: z
    .array(z.string())
    .optional()
    .describe('settings (`llm.apiKey`) or whole sections (`llm`) back to the environment’s values'),
};

export function registerConfigTools(server: McpServer, { client, log }: ToolContext): void {
  server.registerTool(
    'get_config',
    {
      title: 'Read the retrieval and model settings',
      description:
        'Reads the settings searches and answers use: fusion, reranker, answer thresholds, the language model, chunking and the embedding model, ' +
        'and which were changed through the API. Secrets (API keys of the model and reranker) are masked: only whether they are set and a hint.',
      inputSchema: {},
      outputSchema: configOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      runTool(async () => {
        const { ragConfig } = await client.request(RagConfigDocument);
        const result = configView(ragConfig);
        return toolResult(result, renderConfig(result));
      }, log),
  );

  server.registerTool(
    'set_config',
    {
      title: 'Change the retrieval and model settings',
      description:
        'Changes settings for every project (ADMIN keys only; other keys are refused with FORBIDDEN). ' +
        'Give only the settings to change; null (or `reset`) puts a setting back to the environment’s value. All of it applies, or none. ' +
        'Chunking changes apply to documents ingested afterwards. Read the current values with get_config first.',
      inputSchema: ragSettingsInput,
      outputSchema: setConfigOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      runTool(async () => {
        const { me } = await client.request(MeDocument);
        if (me.role !== 'ADMIN') {
          throw new TroveApiError(
            `set_config needs an ADMIN API key; this key (${me.name}) is ${me.role}. Ask an administrator to change the settings.`,
            TroveErrorCode.Forbidden,
          );
        }
        const { updateRagConfig } = await client.request(UpdateRagConfigDocument, { input: args });
        const result: SetConfigOutput = updateRagConfig;
        return toolResult(result, renderConfigChanged(result));
      }, log),
  );
}
