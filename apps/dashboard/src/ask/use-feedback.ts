import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FeedbackFieldsFragment,
  type FeedbackVote,
  GiveFeedbackDocument,
  MyFeedbackDocument,
  type MyFeedbackQuery,
} from '@trove/api-client/browser';
import { gql } from '../api/client';

export type RecordedVote = FeedbackFieldsFragment;

/** What a vote is on: the answer (no chunk) or one of its passages. */
export interface VoteTarget {
  chunkId?: string;
}

export interface AnswerFeedback {
  /** The signed-in key's vote on the answer or a passage of it, as recorded. */
  voteOn(target: VoteTarget): RecordedVote | undefined;
  give(target: VoteTarget, vote: FeedbackVote, comment?: string): Promise<RecordedVote>;
  /** The target being recorded right now, if any. */
  pending?: VoteTarget;
  error: unknown;
}

const sameTarget = (vote: RecordedVote, target: VoteTarget) => (vote.chunkId ?? undefined) === target.chunkId;

/**
 * The signed-in key's votes on one recorded answer (`myFeedback`) and giving one (`giveFeedback`):
 * the recorded vote replaces the key's earlier one on the same target, here as on the server.
 */
export function useFeedback(projectId: string, answerId: string | undefined): AnswerFeedback {
  const queryClient = useQueryClient();
  const queryKey = ['myFeedback', projectId, answerId];
  const votes = useQuery({
    queryKey,
    queryFn: () => gql(MyFeedbackDocument, { projectId, answerIds: [answerId!] }),
    enabled: answerId !== undefined,
  });
  const give = useMutation({
    mutationFn: (input: { target: VoteTarget; vote: FeedbackVote; comment?: string }) =>
      gql(GiveFeedbackDocument, {
        input: {
          answerId: answerId!,
          chunkId: input.target.chunkId,
          vote: input.vote,
          comment: input.comment,
        },
      }),
    onSuccess: ({ giveFeedback }) =>
      queryClient.setQueryData<MyFeedbackQuery>(queryKey, (old) => ({
        myFeedback: [
          ...(old?.myFeedback ?? []).filter((vote) => vote.chunkId !== giveFeedback.chunkId),
          giveFeedback,
        ],
      })),
  });
  return {
    voteOn: (target) => votes.data?.myFeedback.find((vote) => sameTarget(vote, target)),
    give: async (target, vote, comment) => (await give.mutateAsync({ target, vote, comment })).giveFeedback,
    pending: give.isPending ? give.variables?.target : undefined,
    error: give.error,
  };
}
