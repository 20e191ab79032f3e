import { createHmac } from 'node:crypto';
import { compactId, isoMinute, normalizeId, stableId } from './ids';
import type {
  BlockNode,
  DatabaseNode,
  DataSourceNode,
  PageNode,
  ParentRef,
  PropertyNode,
  WorkspaceModel,
} from './model';
import type { DateInput, FileInput, PropertyValueInput, RichTextInput, RichTextItemInput } from './workspace';

/** What rendering needs besides the model: the request time (signed file URLs expire an hour later). */
export interface RenderContext {
  model: WorkspaceModel;
  now: number;
}

type Obj = Record<string, unknown>;

// ---- rich text ----------------------------------------------------------------------------------

export function renderRichText(ctx: RenderContext, input: RichTextInput | undefined): Obj[] {
  if (input === undefined) return [];
  const items: RichTextItemInput[] =
    typeof input === 'string' ? (input === '' ? [] : [{ text: input }]) : input;
  return items.flatMap((item) => renderRichTextItem(ctx, item));
}

function renderRichTextItem(ctx: RenderContext, item: RichTextItemInput): Obj[] {
  const annotations = {
    bold: item.bold ?? false,
    italic: item.italic ?? false,
    strikethrough: item.strikethrough ?? false,
    underline: item.underline ?? false,
    code: item.code ?? false,
    color: item.color ?? 'default',
  };
  if ('text' in item) {
    // Notion splits text longer than 2000 characters into several items.
    const parts = item.text.match(/[\s\S]{1,2000}/g) ?? [''];
    return parts.map((content) => ({
      type: 'text',
      text: { content, link: item.link ? { url: item.link } : null },
      annotations,
      plain_text: content,
      href: item.link ?? null,
    }));
  }
  if ('equation' in item) {
    return [
      {
        type: 'equation',
        equation: { expression: item.equation },
        annotations,
        plain_text: item.equation,
        href: null,
      },
    ];
  }
  const m = item.mention;
  if ('page' in m) {
    const id = normalizeId(m.page)!;
    const page = ctx.model.pages.get(id);
    const title = page && ctx.model.pageVisible(id) ? pageTitle(ctx, page) : 'Untitled';
    return [
      {
        type: 'mention',
        mention: { type: 'page', page: { id } },
        annotations,
        plain_text: title || 'Untitled',
        href: `https://www.notion.so/${compactId(id)}`,
      },
    ];
  }
  if ('database' in m) {
    const id = normalizeId(m.database)!;
    const database = ctx.model.databases.get(id);
    const title = database && ctx.model.databaseVisible(id) ? plainText(ctx, database.title) : 'Untitled';
    return [
      {
        type: 'mention',
        mention: { type: 'database', database: { id } },
        annotations,
        plain_text: title || 'Untitled',
        href: `https://www.notion.so/${compactId(id)}`,
      },
    ];
  }
  if ('user' in m) {
    const id = normalizeId(m.user)!;
    const user = renderUser(ctx, id);
    const name = typeof user.name === 'string' ? user.name : 'Anonymous';
    return [
      { type: 'mention', mention: { type: 'user', user }, annotations, plain_text: `@${name}`, href: null },
    ];
  }
  const date = renderDate(m.date)!;
  const plain = date.end ? `${date.start} → ${date.end}` : String(date.start);
  return [{ type: 'mention', mention: { type: 'date', date }, annotations, plain_text: plain, href: null }];
}

export function plainText(ctx: RenderContext, input: RichTextInput | undefined): string {
  return renderRichText(ctx, input)
    .map((item) => item.plain_text)
    .join('');
}

export function pageTitle(ctx: RenderContext, page: PageNode): string {
  return plainText(ctx, pageTitleInput(ctx, page));
}

function pageTitleInput(ctx: RenderContext, page: PageNode): RichTextInput {
  if (page.parent.type !== 'data_source') return page.title;
  const ds = ctx.model.dataSources.get(page.parent.id)!;
  const title = ds.properties.find((p) => p.type === 'title')!;
  return (page.properties[title.name] as RichTextInput | undefined) ?? [];
}

function renderDate(date: DateInput | null | undefined): Obj | null {
  if (!date) return null;
  return { start: date.start, end: date.end ?? null, time_zone: date.timeZone ?? null };
}

// ---- users, parents, files ------------------------------------------------------------------------

/** A user as it appears inside objects: full, without e-mail, or only `{ object, id }`, per capability. */
export function renderUser(ctx: RenderContext, id: string): Obj {
  const { integration } = ctx.model;
  const info = integration.userInformation ?? 'with_email';
  if (id === integration.botId) return renderBot(ctx);
  const user = ctx.model.users.get(id);
  if (!user || info === 'none') return { object: 'user', id };
  const person = info === 'with_email' && user.email ? { email: user.email } : {};
  return { object: 'user', id, name: user.name, avatar_url: user.avatarUrl ?? null, type: 'person', person };
}

export function renderBot(ctx: RenderContext): Obj {
  const { integration, workspace } = ctx.model;
  return {
    object: 'user',
    id: integration.botId,
    name: integration.name,
    avatar_url: null,
    type: 'bot',
    bot: {
      owner: { type: 'workspace', workspace: true },
      workspace_id: workspace.id,
      workspace_name: workspace.name,
      workspace_limits: { max_file_upload_size_in_bytes: 5_368_709_120 },
    },
  };
}

function partialUser(id: string): Obj {
  return { object: 'user', id };
}

function renderParent(ctx: RenderContext, parent: ParentRef): Obj {
  switch (parent.type) {
    case 'workspace':
      return { type: 'workspace', workspace: true };
    case 'page':
      return { type: 'page_id', page_id: parent.id };
    case 'block':
      return { type: 'block_id', block_id: parent.id };
    case 'data_source':
      return {
        type: 'data_source_id',
        data_source_id: parent.id,
        database_id: ctx.model.dataSources.get(parent.id)!.databaseId,
      };
  }
}

/** A Notion-hosted file: a pre-signed S3 URL that changes on every request and expires after an hour. */
function hostedFile(ctx: RenderContext, ownerId: string, name: string): Obj {
  const fileId = stableId(`${ownerId}/${name}`);
  const date = new Date(ctx.now);
  const amzDate = date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const signature = createHmac('sha256', 'notion-emulator').update(`${fileId}/${ctx.now}`).digest('hex');
  const query = [
    'X-Amz-Algorithm=AWS4-HMAC-SHA256',
    'X-Amz-Content-Sha256=UNSIGNED-PAYLOAD',
    `X-Amz-Credential=ASIAZI2LB4667EMULATOR%2F${amzDate.slice(0, 8)}%2Fus-west-2%2Fs3%2Faws4_request`,
    `X-Amz-Date=${amzDate}`,
    'X-Amz-Expires=3600',
    `X-Amz-Signature=${signature}`,
    'X-Amz-SignedHeaders=host',
    'x-id=GetObject',
  ].join('&');
  return {
    url: `https://prod-files-secure.s3.us-west-2.amazonaws.com/${ctx.model.workspace.id}/${fileId}/${encodeURIComponent(name)}?${query}`,
    expiry_time: new Date(ctx.now + 3_600_000).toISOString(),
  };
}

function renderFile(ctx: RenderContext, ownerId: string, file: FileInput): Obj {
  return file.url
    ? { name: file.name, type: 'external', external: { url: file.url } }
    : { name: file.name, type: 'file', file: hostedFile(ctx, ownerId, file.name) };
}

// ---- pages ------------------------------------------------------------------------------------------

export function pageUrl(ctx: RenderContext, page: PageNode): string {
  const slug = pageTitle(ctx, page)
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return `https://www.notion.so/${slug ? `${slug}-` : ''}${compactId(page.id)}`;
}

/** `filterProperties`: property ids to keep (the `filter_properties` query parameter). */
export function renderPage(ctx: RenderContext, page: PageNode, filterProperties?: string[]): Obj {
  let properties: Obj;
  if (page.parent.type === 'data_source') {
    const ds = ctx.model.dataSources.get(page.parent.id)!;
    properties = {};
    for (const prop of ds.properties) {
      if (filterProperties && !filterProperties.some((id) => samePropertyId(id, prop.id))) continue;
      properties[prop.name] = renderPropertyValue(ctx, page, prop);
    }
  } else {
    const keep = !filterProperties || filterProperties.some((id) => samePropertyId(id, 'title'));
    properties = keep
      ? { title: { id: 'title', type: 'title', title: renderRichText(ctx, page.title) } }
      : {};
  }
  return {
    object: 'page',
    id: page.id,
    created_time: isoMinute(page.created),
    last_edited_time: isoMinute(page.edited),
    created_by: partialUser(page.createdBy),
    last_edited_by: partialUser(page.editedBy),
    cover: null,
    icon: page.icon ? { type: 'emoji', emoji: page.icon } : null,
    parent: renderParent(ctx, page.parent),
    archived: page.inTrash,
    in_trash: page.inTrash,
    is_locked: false,
    properties,
    url: pageUrl(ctx, page),
    public_url: null,
  };
}

/** Property ids travel URL-encoded or not (the SDK decodes `filter_properties` values). */
export function samePropertyId(given: string, id: string): boolean {
  if (given === id) return true;
  try {
    return decodeURIComponent(given) === decodeURIComponent(id);
  } catch {
    return false;
  }
}

/** Notion returns at most 25 related pages inside a page object and sets `has_more`. */
const RELATION_LIMIT = 25;

export function renderPropertyValue(ctx: RenderContext, row: PageNode, prop: PropertyNode, depth = 0): Obj {
  return { id: prop.id, ...propertyValueBody(ctx, row, prop, depth) };
}

/** The `{ type, [type]: value }` part of a property value (rollup arrays hold these without ids). */
export function propertyValueBody(ctx: RenderContext, row: PageNode, prop: PropertyNode, depth = 0): Obj {
  const value: PropertyValueInput | undefined = row.properties[prop.name];
  const option = (name: unknown) => {
    const found = prop.options.find((o) => o.name === name);
    return found ? { id: found.id, name: found.name, color: found.color } : null;
  };
  const schema = prop.schema;
  switch (schema.type) {
    case 'title':
    case 'rich_text':
      return { type: schema.type, [schema.type]: renderRichText(ctx, value as RichTextInput | undefined) };
    case 'number':
      return { type: 'number', number: typeof value === 'number' ? value : null };
    case 'select':
    case 'status':
      return { type: schema.type, [schema.type]: option(value) };
    case 'multi_select':
      return { type: 'multi_select', multi_select: ((value as string[] | undefined) ?? []).map(option) };
    case 'date':
      return { type: 'date', date: renderDate(value as DateInput | null | undefined) };
    case 'checkbox':
      return { type: 'checkbox', checkbox: value === true };
    case 'url':
    case 'email':
    case 'phone_number':
      return { type: schema.type, [schema.type]: typeof value === 'string' ? value : null };
    case 'people':
      return {
        type: 'people',
        people: ((value as string[] | undefined) ?? []).map((id) => renderUser(ctx, normalizeId(id)!)),
      };
    case 'relation': {
      const ids = ((value as string[] | undefined) ?? []).map((id) => normalizeId(id)!);
      return {
        type: 'relation',
        relation: ids.slice(0, RELATION_LIMIT).map((id) => ({ id })),
        has_more: ids.length > RELATION_LIMIT,
      };
    }
    case 'formula': {
      const stored = value as Record<string, unknown> | undefined;
      if (!stored) return { type: 'formula', formula: { type: 'string', string: null } };
      const [kind, result] = Object.entries(stored)[0];
      const rendered = kind === 'date' ? renderDate(result as DateInput | null) : result;
      return { type: 'formula', formula: { type: kind, [kind]: rendered } };
    }
    case 'rollup':
      return { type: 'rollup', rollup: rollupValue(ctx, row, prop, depth) };
    case 'created_time':
      return { type: 'created_time', created_time: isoMinute(row.created) };
    case 'last_edited_time':
      return { type: 'last_edited_time', last_edited_time: isoMinute(row.edited) };
    case 'created_by':
      return { type: 'created_by', created_by: renderUser(ctx, row.createdBy) };
    case 'last_edited_by':
      return { type: 'last_edited_by', last_edited_by: renderUser(ctx, row.editedBy) };
    case 'files':
      return {
        type: 'files',
        files: ((value as FileInput[] | undefined) ?? []).map((f) => renderFile(ctx, row.id, f)),
      };
    case 'unique_id':
      return {
        type: 'unique_id',
        unique_id: { prefix: schema.prefix ?? null, number: row.uniqueId ?? null },
      };
  }
}

/** Rollups are computed from the related rows, like Notion does (formulas, by contrast, are stored). */
function rollupValue(ctx: RenderContext, row: PageNode, prop: PropertyNode, depth: number): Obj {
  const schema = prop.schema as Extract<PropertyNode['schema'], { type: 'rollup' }>;
  const fn = schema.function;
  const ds = ctx.model.dataSources.get((row.parent as { id: string }).id)!;
  const relation = ds.properties.find((p) => p.name === schema.relation)!;
  const relationSchema = relation.schema as Extract<PropertyNode['schema'], { type: 'relation' }>;
  const target = ctx.model.dataSources.get(normalizeId(relationSchema.dataSourceId)!)!;
  const targetProp = target.properties.find((p) => p.name === schema.property)!;
  const related = ((row.properties[relation.name] as string[] | undefined) ?? [])
    .map((id) => ctx.model.pages.get(normalizeId(id)!))
    .filter((page): page is PageNode => !!page && !page.inTrash);
  const values = depth > 3 ? [] : related.map((page) => propertyValueBody(ctx, page, targetProp, depth + 1));
  const numbers = values.map((v) => v.number).filter((n): n is number => typeof n === 'number');
  const dates = values
    .map((v) => (v.type === 'date' ? (v.date as Obj | null)?.start : v[String(v.type)]))
    .filter((d): d is string => typeof d === 'string')
    .sort();
  switch (fn) {
    case 'count':
      return { type: 'number', number: related.length, function: fn };
    case 'count_values':
      return { type: 'number', number: values.filter((v) => !isEmptyValue(v)).length, function: fn };
    case 'sum':
      return { type: 'number', number: numbers.reduce((a, b) => a + b, 0), function: fn };
    case 'average':
      return {
        type: 'number',
        number: numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null,
        function: fn,
      };
    case 'min':
      return { type: 'number', number: numbers.length ? Math.min(...numbers) : null, function: fn };
    case 'max':
      return { type: 'number', number: numbers.length ? Math.max(...numbers) : null, function: fn };
    case 'earliest_date':
    case 'latest_date': {
      const start = fn === 'earliest_date' ? dates[0] : dates[dates.length - 1];
      return { type: 'date', date: start ? { start, end: null, time_zone: null } : null, function: fn };
    }
    case 'show_original':
      return { type: 'array', array: values, function: fn };
  }
}

function isEmptyValue(value: Obj): boolean {
  const inner = value[String(value.type)];
  return inner === null || inner === false || (Array.isArray(inner) && inner.length === 0);
}

// ---- blocks -------------------------------------------------------------------------------------------

export function renderBlock(ctx: RenderContext, block: BlockNode): Obj {
  const { model } = ctx;
  const target = block.type === 'child_page' ? model.pages.get(block.id) : undefined;
  const database = block.type === 'child_database' ? model.databases.get(block.id) : undefined;
  const audit = target ?? database ?? block;
  const inTrash = target?.inTrash ?? database?.inTrash ?? false;
  return {
    object: 'block',
    id: block.id,
    parent: renderParent(ctx, block.parent),
    created_time: isoMinute(audit.created),
    last_edited_time: isoMinute(audit.edited),
    created_by: partialUser(audit.createdBy),
    last_edited_by: partialUser(audit.editedBy),
    has_children: block.type !== 'child_database' && model.childrenOf(block.id).length > 0,
    archived: inTrash,
    in_trash: inTrash,
    type: block.type,
    [block.type]: blockPayload(ctx, block),
  };
}

/** A page fetched through the blocks endpoint is a child_page block, wherever it lives. */
export function renderPageAsBlock(ctx: RenderContext, page: PageNode): Obj {
  const existing = ctx.model.blocks.get(page.id);
  if (existing) return renderBlock(ctx, existing);
  const parent: BlockNode['parent'] =
    page.parent.type === 'page' || page.parent.type === 'block' ? page.parent : { type: 'page', id: page.id };
  const synthetic: BlockNode = {
    id: page.id,
    type: 'child_page',
    parent,
    pageId: page.id,
    children: [],
    data: { type: 'child_page', pageId: page.id },
    created: page.created,
    edited: page.edited,
    createdBy: page.createdBy,
    editedBy: page.editedBy,
  };
  const rendered = renderBlock(ctx, synthetic);
  return { ...rendered, parent: renderParent(ctx, page.parent) };
}

export function renderDatabaseAsBlock(ctx: RenderContext, database: DatabaseNode): Obj {
  const existing = ctx.model.blocks.get(database.id);
  if (existing) return renderBlock(ctx, existing);
  return {
    object: 'block',
    id: database.id,
    parent: renderParent(ctx, database.parent),
    created_time: isoMinute(database.created),
    last_edited_time: isoMinute(database.edited),
    created_by: partialUser(database.createdBy),
    last_edited_by: partialUser(database.editedBy),
    has_children: false,
    archived: database.inTrash,
    in_trash: database.inTrash,
    type: 'child_database',
    child_database: { title: plainText(ctx, database.title) },
  };
}

function blockPayload(ctx: RenderContext, block: BlockNode): Obj {
  const data = block.data;
  const rt = (input: RichTextInput | undefined) => renderRichText(ctx, input);
  switch (data.type) {
    case 'paragraph':
    case 'bulleted_list_item':
    case 'numbered_list_item':
    case 'quote':
    case 'toggle':
      return { rich_text: rt(data.text), color: data.color ?? 'default' };
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
      return {
        rich_text: rt(data.text),
        is_toggleable: data.toggleable ?? false,
        color: data.color ?? 'default',
      };
    case 'to_do':
      return { rich_text: rt(data.text), checked: data.checked ?? false, color: data.color ?? 'default' };
    case 'callout':
      return {
        rich_text: rt(data.text),
        icon: { type: 'emoji', emoji: data.icon ?? '💡' },
        color: data.color ?? 'gray_background',
      };
    case 'code':
      return { caption: rt(data.caption), rich_text: rt(data.code), language: data.language };
    case 'equation':
      return { expression: data.expression };
    case 'divider':
    case 'column_list':
      return {};
    case 'column':
      return data.widthRatio === undefined ? {} : { width_ratio: data.widthRatio };
    case 'table':
      return {
        table_width: data.rows[0].length,
        has_column_header: data.hasColumnHeader ?? false,
        has_row_header: data.hasRowHeader ?? false,
      };
    case 'table_row':
      return { cells: data.cells.map((cell) => rt(cell)) };
    case 'synced_block':
      return {
        synced_from:
          'syncedFrom' in data ? { type: 'block_id', block_id: normalizeId(data.syncedFrom) } : null,
      };
    case 'child_page':
      return { title: pageTitle(ctx, ctx.model.pages.get(block.id)!) };
    case 'child_database':
      return { title: plainText(ctx, ctx.model.databases.get(block.id)!.title) };
    case 'link_to_page':
      return 'pageId' in data
        ? { type: 'page_id', page_id: normalizeId(data.pageId) }
        : { type: 'database_id', database_id: normalizeId(data.databaseId) };
    case 'bookmark':
    case 'embed':
      return { caption: rt(data.caption), url: data.url };
    case 'image':
    case 'file':
    case 'pdf': {
      const source = data.source;
      const fileName =
        'file' in source ? source.file : decodeURIComponent(source.external.split('/').pop() ?? '');
      const media: Obj = { caption: rt(data.caption) };
      if ('file' in source)
        Object.assign(media, { type: 'file', file: hostedFile(ctx, block.id, source.file) });
      else Object.assign(media, { type: 'external', external: { url: source.external } });
      if (data.type !== 'image') media.name = data.name ?? fileName;
      return media;
    }
  }
}

// ---- databases and data sources ---------------------------------------------------------------------

export function renderDatabase(ctx: RenderContext, database: DatabaseNode): Obj {
  return {
    object: 'database',
    id: database.id,
    title: renderRichText(ctx, database.title),
    description: renderRichText(ctx, database.description),
    parent: renderParent(ctx, database.parent),
    is_inline: database.isInline,
    in_trash: database.inTrash,
    archived: database.inTrash,
    is_locked: false,
    created_time: isoMinute(database.created),
    last_edited_time: isoMinute(database.edited),
    data_sources: database.dataSources.map((id) => ({ id, name: ctx.model.dataSources.get(id)!.name })),
    icon: database.icon ? { type: 'emoji', emoji: database.icon } : null,
    cover: null,
    url: `https://www.notion.so/${compactId(database.id)}`,
    public_url: null,
  };
}

export function renderDataSource(ctx: RenderContext, ds: DataSourceNode): Obj {
  const database = ctx.model.databases.get(ds.databaseId)!;
  const properties: Obj = {};
  for (const prop of ds.properties) properties[prop.name] = renderPropertyConfig(ctx, ds, prop);
  return {
    object: 'data_source',
    id: ds.id,
    created_time: isoMinute(database.created),
    last_edited_time: isoMinute(database.edited),
    created_by: partialUser(database.createdBy),
    last_edited_by: partialUser(database.editedBy),
    title: renderRichText(ctx, ds.name),
    description: [],
    icon: database.icon ? { type: 'emoji', emoji: database.icon } : null,
    cover: null,
    properties,
    parent: { type: 'database_id', database_id: database.id },
    database_parent: renderParent(ctx, database.parent),
    is_inline: database.isInline,
    archived: database.inTrash,
    in_trash: database.inTrash,
    url: `https://www.notion.so/${compactId(ds.id)}`,
    public_url: null,
  };
}

function renderPropertyConfig(ctx: RenderContext, ds: DataSourceNode, prop: PropertyNode): Obj {
  const schema = prop.schema;
  let config: Obj = {};
  switch (schema.type) {
    case 'number':
      config = { format: schema.format ?? 'number' };
      break;
    case 'select':
    case 'multi_select':
      config = { options: prop.options };
      break;
    case 'status':
      config = { options: prop.options, groups: prop.groups };
      break;
    case 'relation': {
      const target = normalizeId(schema.dataSourceId)!;
      config = {
        database_id: ctx.model.dataSources.get(target)!.databaseId,
        data_source_id: target,
        type: 'single_property',
        single_property: {},
      };
      break;
    }
    case 'rollup': {
      const relation = ds.properties.find((p) => p.name === schema.relation)!;
      const relationSchema = relation.schema as Extract<PropertyNode['schema'], { type: 'relation' }>;
      const target = ctx.model.dataSources.get(normalizeId(relationSchema.dataSourceId)!)!;
      config = {
        function: schema.function,
        rollup_property_name: schema.property,
        relation_property_name: schema.relation,
        rollup_property_id: target.properties.find((p) => p.name === schema.property)!.id,
        relation_property_id: relation.id,
      };
      break;
    }
    case 'formula':
      config = { expression: schema.expression };
      break;
    case 'unique_id':
      config = { prefix: schema.prefix ?? null };
      break;
  }
  return {
    id: prop.id,
    name: prop.name,
    description: prop.description,
    type: prop.type,
    [prop.type]: config,
  };
}
