import { z } from 'zod';
import type { AskRequest, RequestedAnswerMode } from '@trove/answering';
import { SearchMode, TroveError, TroveErrorCode } from '@trove/domain';
import { FusionMethod, ScoreNormalization } from '../search/search.model';
import { fusionSettings } from '../search/search.resolver';
import { AskMode, type AskInput } from './ask.model';

/** The GraphQL input (or the stream's body) in the answering lib's terms. */
export function askRequest(input: Omit<AskInput, 'mode'> & { mode?: AskMode }): AskRequest {
  return {
    projectId: input.projectId,
    question: input.question,
    topK: input.topK ?? undefined,
    threshold: input.threshold ?? undefined,
    mode: (input.mode ?? AskMode.AUTO) as RequestedAnswerMode,
    search: input.search && {
      mode: input.search.mode ?? SearchMode.HYBRID,
      fusion: input.search.fusion ? fusionSettings(input.search.fusion) : undefined,
    },
  };
}

/** The body of `POST /v1/projects/:projectId/ask/stream`: AskInput without projectId. */
const streamBody = z
  .object({
    question: z.string(),
    topK: z.number().int().optional(),
    threshold: z.number().optional(),
    mode: z.nativeEnum(AskMode).optional(),
    search: z
      .object({
        mode: z.nativeEnum(SearchMode).optional(),
        fusion: z
          .object({
            method: z.nativeEnum(FusionMethod),
            k: z.number().int().optional(),
            vectorWeight: z.number().optional(),
            normalization: z.nativeEnum(ScoreNormalization).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Checks the stream's JSON body; BAD_REQUEST lists what is wrong. */
export function parseStreamBody(projectId: string, body: unknown): AskRequest {
  const parsed = streamBody.safeParse(body);
  if (!parsed.success) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `invalid ask request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`,
    );
  }
  const { search, ...rest } = parsed.data;
  return askRequest({
    ...rest,
    projectId,
    search: search && { mode: search.mode ?? SearchMode.HYBRID, fusion: search.fusion },
  });
}
