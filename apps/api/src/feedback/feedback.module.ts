import { Module } from '@nestjs/common';
import { FeedbackController } from './feedback.controller';
import { FeedbackResolver } from './feedback.resolver';
import { FeedbackService } from './feedback.service';

/** Votes on answers and passages, their export as training data, and the content gaps view. */
@Module({
  controllers: [FeedbackController],
  providers: [FeedbackResolver, FeedbackService],
})
export class FeedbackModule {}
