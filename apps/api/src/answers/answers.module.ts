import { Module } from '@nestjs/common';
import { RagConfigModule } from '../rag-config/rag-config.module';
import { AnswerRetentionPurge } from './answer-retention';
import { AskController } from './ask.controller';
import { AskResolver } from './ask.resolver';
import { AskService } from './ask.service';
import { ThreadsResolver } from './threads.resolver';
import { ThreadsService } from './threads.service';

/**
 * Answers with verified citations, whole (GraphQL `ask`) or streamed (Server-Sent Events), each
 * recorded in the catalog and kept for TROVE_ANSWER_RETENTION_DAYS; conversation threads whose
 * follow-ups are rewritten into standalone questions.
 */
@Module({
  imports: [RagConfigModule],
  controllers: [AskController],
  providers: [AskResolver, AskService, ThreadsResolver, ThreadsService, AnswerRetentionPurge],
  exports: [AskService],
})
export class AnswersModule {}
