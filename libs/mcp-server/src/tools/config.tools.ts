import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod/v3';
import {
  MeDocument,
  RagConfigDocument,
  type RagConfigQuery,
  TroveApiError,
  UpdateRagConfigDocument,
} from '@trove/api-client';
import { configOutput, type ConfigOutput, setConfigOutput, type SetConfigOutput } from '../output-schemas';
import { renderConfig, renderConfigChanged } from '../render';
import type { ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';
import { TroveErrorCode } from '@trove/domain';

type RagConfig = RagConfigQuery['ragConfig'];

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

const optionalNumber = (description: string) => z.number().nullable().optional().describe(description);
const optionalInt = (description: string) => z.number().int().nullable().optional().describe(description);
const optionalString = (description: string) => z.string().nullable().optional().describe(description);

// As UpdateRagConfigInput: a setting left out stays, one given as null goes back to the environment's value.
const settings = {
  search: z
    .object({
      fusion: optionalString('rrf or convex (the default)'),
      rrfK: optionalInt('rrf: k (default 60)'),
      convexVectorWeight: optionalNumber('convex: weight of the vector leg, 0 to 1 (default 0.6)'),
      convexNormalization: optionalString('convex: minmax (the default) or zscore'),
    })
    .strict()
    .optional(),
  rerank: z
    .object({
      provider: optionalString('none, learned, http or llm'),
      candidates: optionalInt('fused hits reranked'),
      maxChars: optionalInt('characters of each passage the reranker sees'),
      model: optionalString('http/llm reranker model'),
      url: optionalString('http reranker endpoint'),
      timeoutMs: optionalInt('reranker timeout'),
      apiKey: optionalString('http reranker key; stored sealed, never returned'),
    })
    .strict()
    .optional(),
  answers: z
    .object({
      topK: optionalInt('passages retrieved for an answer, 1 to 50'),
      threshold: optionalNumber('least similarity a passage needs, -1 to 1'),
      fallbackMode: optionalString('without a language model: EXTRACTIVE or TOP_1'),
      contextTokens: optionalInt('token budget of the passages given to the model'),
      extractiveChunks: optionalInt('EXTRACTIVE: passages quoted from'),
      extractiveSentences: optionalInt('EXTRACTIVE: sentences quoted'),
      supportMinLexical: optionalNumber('citation check: least word overlap'),
      supportMinSemantic: optionalNumber('citation check: least similarity'),
    })
    .strict()
    .optional(),
  llm: z
    .object({
      provider: optionalString('none, openai (any OpenAI-compatible server) or ollama'),
      baseUrl: optionalString('the model server’s URL'),
      model: optionalString('the model name'),
      temperature: optionalNumber('sampling temperature'),
      maxTokens: optionalInt('longest answer, in tokens'),
      contextTokens: optionalInt('the model’s context window'),
      timeoutMs: optionalInt('whole-answer timeout'),
      idleTimeoutMs: optionalInt('longest pause between streamed tokens'),
      retries: optionalInt('retries of a failed call'),
      apiKey: optionalString('the model server’s key; stored sealed, never returned'),
    })
    .strict()
    .optional(),
  chunking: z
    .object({
      targetTokens: optionalInt('chunk size in tokens'),
      overlapTokens: optionalInt('tokens repeated between consecutive chunks'),
      minTokens: optionalInt('smallest chunk'),
    })
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
      inputSchema: settings,
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
