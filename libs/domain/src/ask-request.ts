import { z } from 'zod';
import { SearchMode } from './model';

/**
 * The ask request, defined once: the streamed answer's body is this schema, its type is what
 * clients send, and the API's GraphQL `AskInput` is checked against it (at compile time, and by a
 * test that reads the published schema) so the two cannot drift.
 */

/** The answer wanted: AUTO is LLM when a model is configured, else the configured fallback. */
export const AskMode = { AUTO: 'AUTO', LLM: 'LLM', EXTRACTIVE: 'EXTRACTIVE', TOP_1: 'TOP_1' } as const;
export type AskMode = (typeof AskMode)[keyof typeof AskMode];

/** How HYBRID merges the BM25 and kNN legs, for one request. */
export const FusionMethod = { RRF: 'RRF', CONVEX: 'CONVEX' } as const;
export type FusionMethod = (typeof FusionMethod)[keyof typeof FusionMethod];

/** CONVEX: per-query normalisation of each leg's scores over its candidates. */
export const ScoreNormalization = { MINMAX: 'MINMAX', ZSCORE: 'ZSCORE' } as const;
export type ScoreNormalization = (typeof ScoreNormalization)[keyof typeof ScoreNormalization];

/** Fusion for one request; unset fields keep the server configuration. */
export const fusionRequestSchema = z
  .object({
    method: z.nativeEnum(FusionMethod),
    k: z.number().int().optional(),
    vectorWeight: z.number().optional(),
    normalization: z.nativeEnum(ScoreNormalization).optional(),
  })
  .strict();
export type FusionRequest = z.infer<typeof fusionRequestSchema>;

/** Filters applied inside both retrieval legs; every filter given must hold. */
export const searchFiltersRequestSchema = z
  .object({
    sourceIds: z.array(z.string()).optional(),
    documentIds: z.array(z.string()).optional(),
    /** Only documents of these media types (`Document.mediaType`, `Project.documentTypes`). */
    mediaTypes: z.array(z.string()).optional(),
    languages: z.array(z.string()).optional(),
    hasCode: z.boolean().optional(),
    updatedFrom: z.string().optional(),
    updatedTo: z.string().optional(),
  })
  .strict();
export type SearchFiltersRequest = z.infer<typeof searchFiltersRequestSchema>;

/** How an answer's passages are retrieved: the same options as a search. */
export const askSearchRequestSchema = z
  .object({
    mode: z.nativeEnum(SearchMode).optional(),
    fusion: fusionRequestSchema.optional(),
    filters: searchFiltersRequestSchema.optional(),
  })
  .strict();

/** A question to answer, without its project (the stream's route names it; GraphQL adds `projectId`). */
export const askRequestSchema = z
  .object({
    question: z.string(),
    /** Continue this thread: the question is read as a follow-up of its turns and recorded as the next. */
    threadId: z.string().optional(),
    /** Start a thread with this question (its id comes back as the result's `threadId`). */
    newThread: z.boolean().optional(),
    topK: z.number().int().optional(),
    threshold: z.number().optional(),
    mode: z.nativeEnum(AskMode).optional(),
    search: askSearchRequestSchema.optional(),
  })
  .strict();

/** The body of `POST /v1/projects/:projectId/ask/stream`. */
export type AskStreamRequest = z.infer<typeof askRequestSchema>;
