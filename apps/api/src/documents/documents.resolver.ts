import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuditAction, DocumentStatus, Permission, type TroveDocument } from '@trove/domain';
import { PageArgs } from '../core/connection.model';
import { CitationLinks } from '../core/citation-links';
import { DocumentConnection, DocumentModel, DocumentProgressModel } from './document.model';
import { DocumentsService } from './documents.service';
import { document, project, Requires } from '../access/access.decorators';

@Resolver(() => DocumentModel)
export class DocumentsResolver {
  constructor(
    @Inject(DocumentsService) private readonly service: DocumentsService,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  @ResolveField(() => [String])
  warnings(@Parent() document: TroveDocument): string[] {
    return document.warnings ?? [];
  }

  /** Only while the document is being indexed: a finished ingest's last progress means nothing. */
  @ResolveField(() => DocumentProgressModel, { nullable: true })
  progress(@Parent() document: TroveDocument): DocumentProgressModel | undefined {
    return document.status === DocumentStatus.INDEXING ? document.progress : undefined;
  }

  /** Source items link to their page; uploaded files to their stored original (a signed link). */
  @ResolveField(() => String, { nullable: true })
  url(@Parent() document: TroveDocument): string | undefined {
    // Source URLs go through the same scheme check as citations (http(s) or the api's own paths).
    if (document.url) return this.links.absolute(document.url);
    return document.blobKey ? this.links.original(document.id) : undefined;
  }

  @Query(() => DocumentConnection, {
    description: "A project's documents, oldest first, a page at a time (follow pageInfo.endCursor)",
  })
  @Requires(Permission.READ, project('projectId'))
  documents(
    @Args('projectId', { type: () => ID }) projectId: string,
    @Args() page: PageArgs,
    @Args('status', { type: () => DocumentStatus, nullable: true }) status?: DocumentStatus,
    @Args('sourceId', { type: () => ID, nullable: true }) sourceId?: string,
  ) {
    return this.service.page(projectId, { status, sourceId }, page);
  }

  @Query(() => DocumentModel, { nullable: true })
  @Requires(Permission.READ, document('id', { nullable: true }))
  document(@Args('id', { type: () => ID }) id: string) {
    return this.service.get(id);
  }

  @Mutation(() => Boolean, { description: 'Deletes the document, its chunks and its stored file.' })
  @Requires(Permission.WRITE, document('id'), { audit: AuditAction.DocumentDeleted })
  deleteDocument(@Args('id', { type: () => ID }) id: string) {
    return this.service.delete(id);
  }

  @Mutation(() => DocumentModel, { description: 'Runs the ingest pipeline again on the stored file.' })
  @Requires(Permission.WRITE, document('id'), { audit: AuditAction.DocumentReindexed })
  reindexDocument(@Args('id', { type: () => ID }) id: string) {
    return this.service.reindex(id);
  }
}
