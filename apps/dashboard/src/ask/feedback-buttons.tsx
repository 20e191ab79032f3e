import { ActionIcon, Button, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { FeedbackVote } from '@trove/api-client/browser';
import { errorMessage } from '../api/errors';
import { ThumbIcon } from '../components/thumb-icon';
import { type AnswerFeedback, useFeedback, type VoteTarget } from './use-feedback';

const LABELS = {
  answer: { UP: 'Good answer', DOWN: 'Bad answer' },
  passage: { UP: 'Helpful passage', DOWN: 'Unhelpful passage' },
} as const;

/**
 * Thumbs up and down on an answer or one of its passages, the recorded vote shown pressed; after
 * a vote, an optional comment (sent with the same vote, replacing it).
 */
export function FeedbackButtons({
  feedback,
  target,
  label,
}: {
  feedback: AnswerFeedback;
  target: VoteTarget;
  /** What is voted on, for screen readers and tests: "answer" or "passage". */
  label: keyof typeof LABELS;
}) {
  const recorded = feedback.voteOn(target);
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState('');
  const [failed, setFailed] = useState<unknown>();
  const pending = feedback.pending !== undefined && feedback.pending.chunkId === target.chunkId;

  async function vote(value: FeedbackVote, withComment?: string) {
    setFailed(undefined);
    try {
      await feedback.give(target, value, withComment);
      setCommenting(withComment === undefined);
    } catch (error) {
      setFailed(error);
    }
  }

  function sendComment(event: FormEvent) {
    event.preventDefault();
    if (recorded && comment.trim()) void vote(recorded.vote, comment.trim());
  }

  return (
    <div data-testid={`${label}-feedback`} data-vote={recorded?.vote ?? ''}>
      <Group gap={4} wrap="wrap" align="center">
        {(['UP', 'DOWN'] as const).map((value) => (
          <Tooltip key={value} label={LABELS[label][value]} withArrow>
            <ActionIcon
              variant={recorded?.vote === value ? 'filled' : 'subtle'}
              color={value === 'UP' ? 'green' : 'red'}
              aria-label={LABELS[label][value]}
              aria-pressed={recorded?.vote === value}
              loading={pending}
              onClick={() => void vote(value)}
            >
              <ThumbIcon down={value === 'DOWN'} />
            </ActionIcon>
          </Tooltip>
        ))}
        {recorded && (
          <Text size="xs" c="dimmed" role="status" data-testid="feedback-recorded">
            {recorded.comment ? `Recorded, with your comment.` : 'Recorded, thank you.'}
          </Text>
        )}
      </Group>
      {recorded && commenting && (
        <form onSubmit={sendComment} aria-label={`Comment on the ${label}`}>
          <Group gap="xs" mt={4} wrap="nowrap" align="flex-end">
            <TextInput
              size="xs"
              style={{ flex: 1 }}
              placeholder="Why? (optional)"
              aria-label={`Why, about the ${label} (optional)`}
              maxLength={2000}
              value={comment}
              onChange={(event) => setComment(event.currentTarget.value)}
            />
            <Button
              type="submit"
              size="compact-xs"
              variant="light"
              disabled={!comment.trim()}
              loading={pending}
            >
              Send
            </Button>
          </Group>
        </form>
      )}
      {failed !== undefined && (
        <Text size="xs" c="red" role="alert">
          {errorMessage(failed)}
        </Text>
      )}
    </div>
  );
}

/** Thumbs on a recorded answer as a whole (under the answer). */
export function AnswerFeedbackButtons({ projectId, answerId }: { projectId: string; answerId: string }) {
  return <FeedbackButtons feedback={useFeedback(projectId, answerId)} target={{}} label="answer" />;
}
