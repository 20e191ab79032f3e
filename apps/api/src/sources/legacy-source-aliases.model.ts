import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { FolderFormat } from '@trove/connector-folder';

// The inputs and views of the per-type aliases (legacy-source-aliases.resolver.ts): removed with them.

registerEnumType(FolderFormat, { name: 'FolderFormat' });

@ObjectType('NotionScope')
export class NotionScopeModel {
  @Field() everything!: boolean;
  @Field(() => [String]) rootPageIds!: string[];
  @Field(() => [String]) rootDatabaseIds!: string[];
}

@ObjectType('FolderScope')
export class FolderScopeModel {
  @Field(() => FolderFormat) format!: FolderFormat;
  @Field({ nullable: true, description: 'Server-side path (folder sources added by path)' }) path?: string;
  @Field({ nullable: true, description: 'Name of the uploaded .zip (archive sources)' })
  archiveFileName?: string;
  @Field({ nullable: true, description: 'Base URL citations link to (overrides mkdocs.yml site_url)' })
  siteUrl?: string;
}

@ObjectType('WebScope')
export class WebScopeModel {
  @Field({ description: 'Base URL (pages under it, found by following links) or a sitemap.xml URL' })
  url!: string;
  @Field(() => Int, { description: 'At most this many pages are read' }) maxPages!: number;
}

@InputType()
export class AddNotionSourceInput {
  @Field(() => ID) projectId!: string;
  @Field() name!: string;
  @Field({ description: 'Internal integration token (ntn_… or secret_…)' }) token!: string;
  @Field(() => [String], {
    defaultValue: [],
    description: 'Page ids, database ids or Notion URLs; empty means everything shared with the integration',
  })
  roots!: string[];
  @Field(() => [String], { defaultValue: [], description: 'Which of `roots` are databases' })
  databaseRoots!: string[];
}

@InputType()
export class AddFolderSourceInput {
  @Field(() => ID) projectId!: string;
  @Field() name!: string;
  @Field({
    description:
      'A folder on the server (a MkDocs project, or any folder of files), or one Markdown file; inside TROVE_FOLDER_ROOTS',
  })
  path!: string;
  @Field(() => FolderFormat, { defaultValue: FolderFormat.AUTO }) format!: FolderFormat;
  @Field({ nullable: true, description: "Public base URL for citations; defaults to mkdocs.yml's site_url" })
  siteUrl?: string;
}

@InputType()
export class AddWebSourceInput {
  @Field(() => ID) projectId!: string;
  @Field() name!: string;
  @Field({
    description:
      'An http(s) base URL (the pages under it, found by following links) or a sitemap.xml URL; robots.txt is respected',
  })
  url!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'At most this many pages are read (1 to 100,000; default TROVE_WEB_DEFAULT_MAX_PAGES)',
  })
  maxPages?: number;
}
