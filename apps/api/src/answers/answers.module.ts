import { Module } from '@nestjs/common';
import { RagConfigModule } from '../rag-config/rag-config.module';
import { AnswerRetentionPurge } from './answer-retention';
import { AskController } from './ask.controller';
import { AskResolver } from './ask.resolver';
import { AskService } from './ask.service';

/**
 * Answers with verified citations, whole (GraphQL `ask`) or streamed (Server-Sent Events), each
 * recorded in the catalog and kept for TROVE_ANSWER_RETENTION_DAYS.
 */
@Module({
  imports: [RagConfigModule],
  controllers: [AskController],
  providers: [AskResolver, AskService, AnswerRetentionPurge],
  exports: [AskService],
})
export class AnswersModule {}
