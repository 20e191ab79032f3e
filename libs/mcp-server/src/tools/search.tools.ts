import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod/v3';
import {
  AskDocument,
  SearchDocument,
  ThreadDocument,
  ThreadsDocument,
  TroveApiError,
} from '@trove/api-client';
import { AskMode, isThreadId, SearchMode, TroveErrorCode } from '@trove/domain';
import { documentUri } from '../document-uri';
import {
  askOutput,
  type AskOutput,
  listThreadsOutput,
  type ListThreadsOutput,
  searchOutput,
  type SearchOutput,
} from '../output-schemas';
import { resolveProject } from '../project-resolver';
import { renderAsk, renderSearch, renderThreads } from '../render';
import { PROJECT_ARGUMENT_DESCRIPTION, type ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';

/** The most hits one search tool call returns: more would flood an agent's context. */
export const MAX_SEARCH_LIMIT = 20;

const mode = z
  .nativeEnum(SearchMode)
  .describe(
    'HYBRID (default): keywords and meaning fused; KEYWORD: exact terms, names, codes; VECTOR: meaning only',
  );

const filters = z
  .object({
    sourceIds: z.array(z.string()).optional().describe('only documents of these sources (see list_sources)'),
    documentIds: z.array(z.string()).optional().describe('only these documents'),
    languages: z
      .array(z.enum(['en', 'ru', 'cjk', 'und']))
      .optional()
      .describe('only chunks in these languages'),
    hasCode: z.boolean().optional().describe('only chunks with (true) or without (false) a code block'),
    updatedFrom: z.string().optional().describe('ISO 8601: only documents updated at or after this'),
    updatedTo: z.string().optional().describe('ISO 8601: only documents updated before this'),
  })
  .strict();

export function registerSearchTools(server: McpServer, { client, log }: ToolContext): void {
  server.registerTool(
    'search',
    {
      title: 'Search the knowledge base',
      description:
        "Finds the passages of a Trove project's documents that match a query (hybrid keyword + semantic search, reranked). " +
        'Use it to locate evidence; read around a promising hit with get_chunk, or the whole document via its resourceUri. ' +
        'Returns ranked hits with the source and document they come from, heading path, the chunk text, a citation URL to quote, and scores.',
      inputSchema: {
        query: z.string().min(1).max(2000).describe('what to look for, in natural language or keywords'),
        project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION),
        limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5).describe('hits to return, 1 to 20'),
        mode: mode.default('HYBRID'),
        filters: filters.optional(),
        expand: z
          .number()
          .int()
          .min(0)
          .max(3)
          .default(0)
          .describe('also return each hit’s N neighbouring chunks on each side (0 to 3)'),
      },
      outputSchema: searchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const project = await resolveProject(client, args.project);
        const { search } = await client.request(SearchDocument, {
          input: {
            projectId: project.id,
            query: args.query,
            limit: args.limit,
            mode: args.mode,
            expand: args.expand,
            ...(args.filters ? { filters: args.filters } : {}),
          },
        });
        const result: SearchOutput = {
          projectId: project.id,
          query: args.query,
          mode: args.mode,
          reranked: search.reranked,
          warnings: search.warnings,
          hits: search.hits.map((hit, index) => ({
            rank: index + 1,
            chunkId: hit.chunkId,
            documentId: hit.documentId,
            position: hit.position,
            title: hit.title,
            fileName: hit.fileName ?? null,
            sourceId: hit.sourceId ?? null,
            sourceName: hit.sourceName ?? null,
            sourceType: hit.sourceType ?? null,
            headingPath: hit.headingPath,
            page: hit.page,
            citationUrl: hit.citationUrl,
            text: hit.text,
            score: hit.score,
            rerankScore: hit.rerankScore,
            bm25: hit.bm25,
            knn: hit.knn,
            resourceUri: documentUri(project.id, hit.documentId),
            ocr: hit.ocr ?? null,
            ocrConfidence: hit.ocrConfidence ?? null,
            context: (hit.context ?? []).map((neighbour) => ({
              chunkId: neighbour.chunkId,
              position: neighbour.position,
              headingPath: neighbour.headingPath,
              citationUrl: neighbour.citationUrl,
              text: neighbour.text,
            })),
          })),
        };
        return toolResult(result, renderSearch(result));
      }, log),
  );

  server.registerTool(
    'ask',
    {
      title: 'Answer a question with citations',
      description:
        "Answers a question from a Trove project's documents, with numbered [n] citations that the server verified against the sources. " +
        'Use it for a direct question the documents should answer in one place; for multi-part questions, search each part instead. ' +
        'When insufficientContext is true the documents do not hold the answer: say so rather than guess. ' +
        'Without a language model configured the answer quotes the best supporting sentences (mode EXTRACTIVE). ' +
        'For a conversation pass thread "new" (the answer returns its threadId), then that id with each follow-up: ' +
        'a follow-up such as "and for the Russian office?" is rewritten into a standalone question before retrieval ' +
        '(returned as standaloneQuestion). list_threads shows earlier threads.',
      inputSchema: {
        question: z.string().min(1).max(2000).describe('the question, in any language the documents are in'),
        project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION),
        top_k: z
          .number()
          .int()
          .min(1)
          .max(50)
          .optional()
          .describe('passages retrieved (default: the server’s)'),
        threshold: z
          .number()
          .min(-1)
          .max(1)
          .optional()
          .describe('least similarity a passage needs to be used, -1 to 1 (default: the server’s)'),
        mode: z
          .nativeEnum(AskMode)
          .default(AskMode.AUTO)
          .describe('AUTO: the language model when one is configured, else the configured fallback'),
        thread: z
          .string()
          .optional()
          .describe('"new" starts a conversation; a thread id (thr_…) asks in that one, as a follow-up'),
      },
      outputSchema: askOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const project = await resolveProject(client, args.project);
        const { ask } = await client.request(AskDocument, {
          input: {
            projectId: project.id,
            question: args.question,
            mode: args.mode,
            ...(args.top_k !== undefined ? { topK: args.top_k } : {}),
            ...(args.threshold !== undefined ? { threshold: args.threshold } : {}),
            ...threadChoice(args.thread),
          },
        });
        const result: AskOutput = {
          projectId: project.id,
          question: args.question,
          answerId: ask.answerId,
          threadId: ask.threadId ?? null,
          standaloneQuestion: ask.standaloneQuestion ?? null,
          answer: ask.answer,
          mode: ask.mode,
          insufficientContext: ask.insufficientContext,
          language: ask.language,
          model: ask.model,
          citations: ask.citations,
          verification: ask.verification,
        };
        return toolResult(result, renderAsk(result));
      }, log),
  );

  server.registerTool(
    'list_threads',
    {
      title: 'List conversation threads',
      description:
        "Lists this API key's conversation threads in a project (asked with ask's `thread`), most recently used first; " +
        'with thread_id, that thread with its turns: each question, what was searched for, the answer and its citations. ' +
        'Use it to pick up an earlier conversation: pass its id to ask as `thread`.',
      inputSchema: {
        project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION),
        thread_id: z.string().optional().describe('a thread (thr_…) to show with its turns'),
        limit: z.number().int().min(1).max(50).default(20).describe('threads listed'),
      },
      outputSchema: listThreadsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const project = await resolveProject(client, args.project);
        const { threads } = await client.request(ThreadsDocument, {
          projectId: project.id,
          first: args.limit,
        });
        let thread: ListThreadsOutput['thread'] = null;
        if (args.thread_id !== undefined) {
          const found = (await client.request(ThreadDocument, { id: args.thread_id })).thread;
          if (!found || found.projectId !== project.id) {
            throw new TroveApiError(
              `no thread ${args.thread_id} in this project`,
              TroveErrorCode.ThreadNotFound,
            );
          }
          thread = {
            id: found.id,
            title: found.title,
            turnCount: found.turnCount,
            createdAt: found.createdAt,
            updatedAt: found.updatedAt,
            turns: found.turns.map((turn) => ({
              position: turn.position,
              question: turn.question,
              standaloneQuestion: turn.standaloneQuestion ?? null,
              answer: turn.answer,
              mode: turn.mode,
              citations: turn.citations.map(({ marker, title, headingPath, citationUrl }) => ({
                marker,
                title,
                headingPath,
                citationUrl: citationUrl ?? null,
              })),
            })),
          };
        }
        const result: ListThreadsOutput = {
          projectId: project.id,
          threads: threads.nodes.map(({ id, title, turnCount, createdAt, updatedAt }) => ({
            id,
            title,
            turnCount,
            createdAt,
            updatedAt,
          })),
          thread,
        };
        return toolResult(result, renderThreads(result));
      }, log),
  );
}

/** ask's `thread`: "new" starts a conversation, an id continues one. */
function threadChoice(thread: string | undefined): { newThread?: boolean; threadId?: string } {
  if (thread === undefined) return {};
  if (thread.toLowerCase() === 'new') return { newThread: true };
  if (!isThreadId(thread)) {
    throw new TroveApiError(
      'thread is "new" or a thread id (thr_…) from ask or list_threads',
      TroveErrorCode.BadRequest,
    );
  }
  return { threadId: thread };
}
