import { Module } from '@nestjs/common';
import { RagConfigModule } from '../rag-config/rag-config.module';
import { AskController } from './ask.controller';
import { AskResolver } from './ask.resolver';
import { AskService } from './ask.service';

/** Answers with verified citations, whole (GraphQL `ask`) or streamed (Server-Sent Events). */
@Module({
  imports: [RagConfigModule],
  controllers: [AskController],
  providers: [AskResolver, AskService],
  exports: [AskService],
})
export class AnswersModule {}
