import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { FOLDER_SOURCE_TYPE } from '@trove/connector-folder';
import { NOTION_SOURCE_TYPE } from '@trove/connector-notion';
import { WEB_SOURCE_TYPE } from '@trove/connector-web';
import { AuditAction, Permission, type Source } from '@trove/domain';
import {
  AddFolderSourceInput,
  AddNotionSourceInput,
  AddWebSourceInput,
  FolderScopeModel,
  NotionScopeModel,
  WebScopeModel,
} from './legacy-source-aliases.model';
import { SourceModel } from './source.model';
import { SourcesService } from './sources.service';
import { WebhookVerificationService } from './webhook-verification.service';
import { project, Requires, source } from '../access/access.decorators';

/**
 * The per-type operations of the API before every source type was a plugin: each is one line
 * over its generic successor, kept so that older clients keep working until LEGACY_REMOVAL. The
 * only place outside the connector libs that names the first three types; delete this file, its
 * model and their rows in the access matrix on that date.
 */
export const LEGACY_REMOVAL = '2027-06-30';

const deprecated = (successor: string) => `Use ${successor}; removed after ${LEGACY_REMOVAL}.`;

@Resolver(() => SourceModel)
export class LegacySourceAliasesResolver {
  constructor(
    @Inject(SourcesService) private readonly sources: SourcesService,
    @Inject(WebhookVerificationService) private readonly webhooks: WebhookVerificationService,
  ) {}

  @Mutation(() => SourceModel, { deprecationReason: deprecated('addSource(type: NOTION)') })
  @Requires(Permission.WRITE, project('input.projectId'), { audit: AuditAction.SourceAdded })
  addNotionSource(@Args('input') { projectId, name, token, roots, databaseRoots }: AddNotionSourceInput) {
    return this.sources.add({
      projectId,
      name,
      type: NOTION_SOURCE_TYPE,
      config: { token, rootPageIds: roots, rootDatabaseIds: databaseRoots },
    });
  }

  @Mutation(() => SourceModel, { deprecationReason: deprecated('addSource(type: FOLDER)') })
  @Requires(Permission.WRITE, project('input.projectId'), { audit: AuditAction.SourceAdded })
  addFolderSource(@Args('input') { projectId, name, path, format, siteUrl }: AddFolderSourceInput) {
    return this.sources.add({ projectId, name, type: FOLDER_SOURCE_TYPE, config: { path, format, siteUrl } });
  }

  @Mutation(() => SourceModel, { deprecationReason: deprecated('addSource(type: WEB)') })
  @Requires(Permission.WRITE, project('input.projectId'), { audit: AuditAction.SourceAdded })
  addWebSource(@Args('input') { projectId, name, url, maxPages }: AddWebSourceInput) {
    return this.sources.add({ projectId, name, type: WEB_SOURCE_TYPE, config: { url, maxPages } });
  }

  @ResolveField(() => NotionScopeModel, { nullable: true, deprecationReason: deprecated('config') })
  notion(@Parent() parent: Source): NotionScopeModel | null {
    return parent.type === NOTION_SOURCE_TYPE ? (parent.config as NotionScopeModel) : null;
  }

  @ResolveField(() => FolderScopeModel, { nullable: true, deprecationReason: deprecated('config') })
  folder(@Parent() parent: Source): FolderScopeModel | null {
    return parent.type === FOLDER_SOURCE_TYPE ? (parent.config as FolderScopeModel) : null;
  }

  @ResolveField(() => WebScopeModel, { nullable: true, deprecationReason: deprecated('config') })
  web(@Parent() parent: Source): WebScopeModel | null {
    return parent.type === WEB_SOURCE_TYPE ? (parent.config as WebScopeModel) : null;
  }

  @Query(() => String, { nullable: true, deprecationReason: deprecated('webhookVerificationToken') })
  @Requires(Permission.WRITE, source('sourceId'))
  notionWebhookVerificationToken(@Args('sourceId', { type: () => ID }) sourceId: string) {
    return this.webhooks.token(sourceId);
  }

  @Mutation(() => Boolean, { deprecationReason: deprecated('resetWebhookVerification') })
  @Requires(Permission.WRITE, source('sourceId'), { audit: AuditAction.SourceChanged })
  resetNotionWebhook(@Args('sourceId', { type: () => ID }) sourceId: string) {
    return this.webhooks.reset(sourceId);
  }
}
