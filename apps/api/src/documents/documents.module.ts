import { Module } from '@nestjs/common';
import { ChunksResolver } from './chunks.resolver';
import { ChunksService } from './chunks.service';
import { DocumentsController } from './documents.controller';
import { DocumentsResolver } from './documents.resolver';
import { DocumentsService } from './documents.service';
import { OriginalsController } from './originals.controller';

/** Documents: uploads, reading and re-indexing them, their chunks and their originals. */
@Module({
  controllers: [DocumentsController, OriginalsController],
  providers: [DocumentsResolver, DocumentsService, ChunksResolver, ChunksService],
})
export class DocumentsModule {}
