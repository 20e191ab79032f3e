import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { DocumentModel } from './document.model';
import { DocumentsService } from './documents.service';

@Resolver(() => DocumentModel)
export class DocumentsResolver {
  constructor(@Inject(DocumentsService) private readonly service: DocumentsService) {}

  @Query(() => [DocumentModel])
  documents(@Args('projectId', { type: () => ID }) projectId: string) {
    return this.service.list(projectId);
  }

  @Query(() => DocumentModel, { nullable: true })
  document(@Args('id', { type: () => ID }) id: string) {
    return this.service.get(id);
  }

  @Mutation(() => Boolean, { description: 'Deletes the document, its chunks and its stored file.' })
  deleteDocument(@Args('id', { type: () => ID }) id: string) {
    return this.service.delete(id);
  }

  @Mutation(() => DocumentModel, { description: 'Runs the ingest pipeline again on the stored file.' })
  reindexDocument(@Args('id', { type: () => ID }) id: string) {
    return this.service.reindex(id);
  }
}
