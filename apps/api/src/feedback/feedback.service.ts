import { Inject, Injectable } from '@nestjs/common';
import { encodeCursor, type AnswerRecords, type FeedbackRecords } from '@trove/catalog';
import {
  ApiKeyRole,
  FEEDBACK_COMMENT_MAX,
  type FeedbackExportLine,
  feedbackExportLine,
  type FeedbackRecord,
  isAnswerId,
  notFoundError,
  ownedBy,
  ownerOf,
  type Principal,
  roleIn,
  TroveError,
  TroveErrorCode,
  wellFormedText,
} from '@trove/domain';
import { ANSWER_RECORDS, FEEDBACK_RECORDS } from '../core/catalog.providers';
import { toConnection } from '../core/connection.model';
import type { PageArgs } from '../core/connection.model';
import {
  type FeedbackModel,
  FeedbackTargetValue,
  FeedbackVoteValue,
  type GiveFeedbackInput,
} from './feedback.model';

/** Votes read per catalog page while exporting. */
const EXPORT_PAGE = 500;

/**
 * Votes on answers and their passages, the export of them as training data, and the content gaps
 * they and unanswered questions reveal. A key votes on the answers it was given (an ADMIN key on
 * any answer of the project), on a passage only when it is one of the answer's.
 */
@Injectable()
export class FeedbackService {
  constructor(
    @Inject(FEEDBACK_RECORDS) private readonly feedback: FeedbackRecords,
    @Inject(ANSWER_RECORDS) private readonly answers: Pick<AnswerRecords, 'getAnswer' | 'answerProject'>,
  ) {}

  async give(input: GiveFeedbackInput, principal: Principal): Promise<FeedbackModel> {
    if (!isAnswerId(input.answerId)) {
      throw new TroveError(TroveErrorCode.BadRequest, 'answerId is not an answer id (ans_…)');
    }
    const comment = wellFormedText(input.comment ?? '').trim();
    if ([...comment].length > FEEDBACK_COMMENT_MAX) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the comment is longer than ${FEEDBACK_COMMENT_MAX} characters`,
      );
    }
    const projectId = await this.answers.answerProject(input.answerId);
    const answer = projectId && (await this.answers.getAnswer(projectId, input.answerId));
    // Another key's answer is as missing as one that never was.
    if (
      !answer ||
      (roleIn(principal, answer.projectId) !== ApiKeyRole.ADMIN && !ownedBy(answer, principal))
    ) {
      throw notFoundError('answer', input.answerId);
    }
    if (input.chunkId && !answer.hits.some((hit) => hit.chunkId === input.chunkId)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `chunk ${input.chunkId} is not a passage of answer ${input.answerId}`,
      );
    }
    const recorded = await this.feedback.recordFeedback({
      answerId: answer.id,
      projectId: answer.projectId,
      ...ownerOf(principal),
      target: input.chunkId ? 'passage' : 'answer',
      ...(input.chunkId ? { chunkId: input.chunkId } : {}),
      vote: input.vote === FeedbackVoteValue.UP ? 1 : -1,
      ...(comment ? { comment } : {}),
    });
    return toModel(recorded);
  }

  /** The caller's votes on these answers of the project. */
  async mine(projectId: string, answerIds: string[], principal: Principal): Promise<FeedbackModel[]> {
    if (answerIds.length > EXPORT_PAGE) {
      throw new TroveError(TroveErrorCode.BadRequest, `at most ${EXPORT_PAGE} answerIds at a time`);
    }
    const votes = await this.feedback.feedbackOn(projectId, answerIds, ownerOf(principal));
    return votes.map(toModel);
  }

  async gaps(projectId: string, request: PageArgs) {
    const page = await this.feedback.contentGaps(projectId, {
      first: request.first,
      after: request.after ?? undefined,
    });
    return toConnection(page, (gap) => encodeCursor(new Date(gap.lastAskedAt), gap.key));
  }

  /** How many votes the export will hold, then its lines, page by page. */
  async export(projectId: string): Promise<{ count: number; lines: AsyncGenerator<FeedbackExportLine> }> {
    const first = await this.feedback.pageFeedback(projectId, { first: EXPORT_PAGE });
    const feedback = this.feedback;
    async function* lines(): AsyncGenerator<FeedbackExportLine> {
      let page = first;
      for (;;) {
        for (const { vote, answer } of page.items) yield feedbackExportLine(vote, answer);
        if (!page.hasNextPage) return;
        page = await feedback.pageFeedback(projectId, { first: EXPORT_PAGE, after: page.endCursor });
      }
    }
    return { count: first.totalCount, lines: lines() };
  }
}

function toModel(vote: FeedbackRecord): FeedbackModel {
  return {
    id: vote.id,
    answerId: vote.answerId,
    target: vote.target === 'passage' ? FeedbackTargetValue.PASSAGE : FeedbackTargetValue.ANSWER,
    chunkId: vote.chunkId,
    vote: vote.vote === 1 ? FeedbackVoteValue.UP : FeedbackVoteValue.DOWN,
    comment: vote.comment,
    createdAt: vote.createdAt,
    updatedAt: vote.updatedAt,
  };
}
