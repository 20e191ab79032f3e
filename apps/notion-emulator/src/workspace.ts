import { readFileSync } from 'node:fs';
import { normalizeId } from './ids';

/**
 * The fixture format of the Notion emulator: a whole workspace as plain JSON, written for people (short
 * authoring shapes such as `text: 'Hello'`), which the emulator renders into Notion's API objects.
 * Ids are UUIDs, with or without dashes. Times are ISO strings; the API rounds them down to the minute.
 */
export interface Workspace {
  workspace: { id: string; name: string };
  integration: IntegrationInput;
  users: UserInput[];
  /** Every page: top-level pages, sub-pages and database rows. */
  pages: PageInput[];
  databases: DatabaseInput[];
}

export interface IntegrationInput {
  /** The integration's id (`integration_id` in webhook events). */
  id: string;
  /** The bot user's id (`GET /v1/users/me`). */
  botId: string;
  name: string;
  /** The internal integration token clients send as `Authorization: Bearer <token>`. */
  token: string;
  /** The "user information" capability; `none` makes the users endpoints answer 403 `restricted_resource`. */
  userInformation?: 'none' | 'without_email' | 'with_email';
}

export interface UserInput {
  id: string;
  name: string;
  email?: string;
  avatarUrl?: string | null;
}

/** Who made and last changed an object, and when. `lastEdited*` default to the `created*` values. */
export interface AuditInput {
  createdTime: string;
  createdBy: string;
  lastEditedTime?: string;
  lastEditedBy?: string;
}

export type ParentInput =
  | { type: 'workspace' }
  | { type: 'page'; id: string }
  | { type: 'block'; id: string }
  | { type: 'data_source'; id: string };

export interface PageInput extends AuditInput {
  id: string;
  parent: ParentInput;
  /** Title of a page outside databases (its single `title` property). Rows use their title property. */
  title?: RichTextInput;
  /** An emoji. */
  icon?: string | null;
  /** Property values of a database row, by property name. */
  properties?: Record<string, PropertyValueInput>;
  /**
   * Content. A sub-page appears where a `{ type: 'child_page', pageId }` block names it; a sub-page whose
   * parent is a page and that no block names is appended at the end of that page.
   */
  blocks?: BlockInput[];
  inTrash?: boolean;
  /** `false`: the integration cannot see the page or anything below it (404 everywhere). Default true. */
  shared?: boolean;
}

export interface DatabaseInput extends AuditInput {
  id: string;
  title: RichTextInput;
  description?: RichTextInput;
  parent: { type: 'workspace' } | { type: 'page'; id: string } | { type: 'block'; id: string };
  /** Inline (shown inside the parent page) or full page. Default false. */
  isInline?: boolean;
  icon?: string | null;
  inTrash?: boolean;
  shared?: boolean;
  dataSources: DataSourceInput[];
}

export interface DataSourceInput {
  id: string;
  name: string;
  /** In display order; exactly one `title` property. */
  properties: PropertySchemaInput[];
}

export const PROPERTY_TYPES = [
  'title',
  'rich_text',
  'number',
  'select',
  'multi_select',
  'status',
  'date',
  'checkbox',
  'url',
  'email',
  'phone_number',
  'people',
  'relation',
  'formula',
  'rollup',
  'created_time',
  'last_edited_time',
  'created_by',
  'last_edited_by',
  'files',
  'unique_id',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const SELECT_COLORS = [
  'default',
  'gray',
  'brown',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'pink',
  'red',
] as const;
export type SelectColor = (typeof SELECT_COLORS)[number];

export interface OptionInput {
  name: string;
  color?: SelectColor;
  description?: string | null;
}

export const ROLLUP_FUNCTIONS = [
  'count',
  'count_values',
  'sum',
  'average',
  'min',
  'max',
  'earliest_date',
  'latest_date',
  'show_original',
] as const;
export type RollupFunctionInput = (typeof ROLLUP_FUNCTIONS)[number];

interface PropertySchemaBase {
  name: string;
  /** Notion's short property id; generated when absent (`title` for the title property). */
  id?: string;
  description?: string | null;
}

export type PropertySchemaInput = PropertySchemaBase &
  (
    | {
        type:
          | 'title'
          | 'rich_text'
          | 'date'
          | 'checkbox'
          | 'url'
          | 'email'
          | 'phone_number'
          | 'people'
          | 'files'
          | 'created_time'
          | 'last_edited_time'
          | 'created_by'
          | 'last_edited_by';
      }
    | { type: 'number'; format?: string }
    | { type: 'select' | 'multi_select'; options: OptionInput[] }
    | {
        type: 'status';
        options: OptionInput[];
        groups: { name: string; color?: SelectColor; options: string[] }[];
      }
    | { type: 'relation'; dataSourceId: string }
    | { type: 'rollup'; relation: string; property: string; function: RollupFunctionInput }
    | { type: 'formula'; expression: string }
    | { type: 'unique_id'; prefix?: string | null }
  );

export interface DateInput {
  start: string;
  end?: string | null;
  timeZone?: string | null;
}

/**
 * Values of row properties, by the property's type: title/rich_text → RichTextInput; number → number|null;
 * select/status → option name|null; multi_select → option names; date → DateInput|null; checkbox → boolean;
 * url/email/phone_number → string|null; people → user ids; relation → page ids; files → FileInput[];
 * formula → the stored result (the emulator does not evaluate expressions); unique_id → number (default:
 * creation order). rollup, created_*, last_edited_* are computed and must not be given.
 */
export type PropertyValueInput =
  RichTextInput | number | null | string | string[] | boolean | DateInput | FileInput[] | FormulaValueInput;

export type FormulaValueInput =
  | { string: string | null }
  | { number: number | null }
  | { boolean: boolean | null }
  | { date: DateInput | null };

export interface FileInput {
  name: string;
  /** External file; without it the file is hosted by Notion (signed, expiring S3 URL). */
  url?: string;
}

export const TEXT_COLORS = [
  ...SELECT_COLORS,
  'default_background',
  'gray_background',
  'brown_background',
  'orange_background',
  'yellow_background',
  'green_background',
  'blue_background',
  'purple_background',
  'pink_background',
  'red_background',
] as const;
export type ApiColor = (typeof TEXT_COLORS)[number];

export interface AnnotationsInput {
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  underline?: boolean;
  code?: boolean;
  color?: ApiColor;
}

export type RichTextItemInput = AnnotationsInput &
  (
    | { text: string; link?: string }
    | { mention: { page: string } | { database: string } | { user: string } | { date: DateInput } }
    | { equation: string }
  );

/** A plain string is one unannotated text item. */
export type RichTextInput = string | RichTextItemInput[];

interface BlockBase {
  /** Generated from the position when absent (stable across runs). */
  id?: string;
  createdTime?: string;
  createdBy?: string;
  lastEditedTime?: string;
  lastEditedBy?: string;
}

export type TextBlockType = 'paragraph' | 'bulleted_list_item' | 'numbered_list_item' | 'quote' | 'toggle';
export type MediaBlockType = 'image' | 'file' | 'pdf';

export type BlockInput = BlockBase &
  (
    | { type: TextBlockType; text: RichTextInput; color?: ApiColor; children?: BlockInput[] }
    | {
        type: 'heading_1' | 'heading_2' | 'heading_3';
        text: RichTextInput;
        color?: ApiColor;
        /** Only toggleable headings may have children. */
        toggleable?: boolean;
        children?: BlockInput[];
      }
    | { type: 'to_do'; text: RichTextInput; checked?: boolean; color?: ApiColor; children?: BlockInput[] }
    | { type: 'callout'; text: RichTextInput; icon?: string; color?: ApiColor; children?: BlockInput[] }
    | { type: 'code'; code: string; language: string; caption?: RichTextInput }
    | { type: 'equation'; expression: string }
    | { type: 'divider' }
    | { type: 'table'; hasColumnHeader?: boolean; hasRowHeader?: boolean; rows: RichTextInput[][] }
    | { type: 'column_list'; columns: { id?: string; widthRatio?: number; children: BlockInput[] }[] }
    /** The original of a synced block. */
    | { type: 'synced_block'; children: BlockInput[] }
    /** A reference to an original synced block (its children are the original's). */
    | { type: 'synced_block'; syncedFrom: string }
    | { type: 'child_page'; pageId: string }
    | { type: 'child_database'; databaseId: string }
    | { type: 'link_to_page'; pageId: string }
    | { type: 'link_to_page'; databaseId: string }
    | { type: 'bookmark' | 'embed'; url: string; caption?: RichTextInput }
    | {
        type: MediaBlockType;
        /** A file hosted by Notion (by its file name) or an external URL. */
        source: { file: string } | { external: string };
        caption?: RichTextInput;
        /** For file and pdf blocks; defaults to the file name. */
        name?: string;
      }
  );

export const BLOCK_TYPES = [
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'code',
  'equation',
  'divider',
  'table',
  'table_row',
  'column_list',
  'column',
  'synced_block',
  'child_page',
  'child_database',
  'link_to_page',
  'bookmark',
  'embed',
  'image',
  'file',
  'pdf',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export class WorkspaceValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid Notion workspace fixture (${problems.length} problems):\n  - ${problems.join('\n  - ')}`);
    this.name = 'WorkspaceValidationError';
  }
}

/** Reads a workspace fixture from a JSON file and validates it. */
export function loadWorkspace(path: string): Workspace {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read Notion workspace fixture ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`Notion workspace fixture ${path} is not valid JSON: ${(error as Error).message}`);
  }
  validateWorkspace(parsed);
  return parsed;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const COMPUTED_PROPERTY_TYPES = new Set<PropertyType>([
  'rollup',
  'created_time',
  'last_edited_time',
  'created_by',
  'last_edited_by',
]);

/** What the checker needs to know about the rest of the workspace to check references. */
export interface FixtureRefs {
  hasUser(id: string): boolean;
  hasPage(id: string): boolean;
  hasDatabase(id: string): boolean;
  /** The (normalized) data source id of a row page, undefined for other pages. */
  rowDataSource(pageId: string): string | undefined;
  /** Registers a block id; returns false when it is already used. */
  claimBlockId(id: string): boolean;
}

/**
 * Checks pieces of a fixture (rich text, blocks, property values) and collects readable problems.
 * Used for whole fixtures and for the emulator's mutation helpers.
 */
export class FixtureChecker {
  readonly problems: string[] = [];
  /** Container (page or block id, or a synthetic key) of each child_page / child_database block. */
  readonly childPageRefs = new Map<string, string[]>();
  readonly childDatabaseRefs = new Map<string, string[]>();
  readonly syncedOriginals = new Set<string>();
  readonly syncedReferences: { path: string; from: string }[] = [];
  readonly blockIds = new Set<string>();

  constructor(private readonly refs: FixtureRefs) {}

  fail(path: string, message: string): void {
    this.problems.push(`${path}: ${message}`);
  }

  user(path: string, id: unknown, optional = false): void {
    if (optional && id === undefined) return;
    if (typeof id !== 'string' || !this.refs.hasUser(normalizeId(id) ?? '')) {
      this.fail(path, `unknown user ${JSON.stringify(id)}`);
    }
  }

  time(path: string, value: unknown, optional = false): void {
    if (optional && value === undefined) return;
    if (typeof value !== 'string' || !ISO_DATETIME.test(value) || Number.isNaN(Date.parse(value))) {
      this.fail(path, `expected an ISO date-time, got ${JSON.stringify(value)}`);
    }
  }

  audit(path: string, audit: Json, optional = false): void {
    this.time(`${path}.createdTime`, audit.createdTime, optional);
    this.user(`${path}.createdBy`, audit.createdBy, optional);
    this.time(`${path}.lastEditedTime`, audit.lastEditedTime, true);
    this.user(`${path}.lastEditedBy`, audit.lastEditedBy, true);
    const created = Date.parse(String(audit.createdTime));
    if (audit.lastEditedTime !== undefined && Date.parse(String(audit.lastEditedTime)) < created) {
      this.fail(`${path}.lastEditedTime`, 'is before createdTime');
    }
  }

  date(path: string, value: unknown): void {
    if (!isObject(value) || typeof value.start !== 'string' || !ISO_DATE.test(value.start)) {
      return this.fail(
        path,
        `expected { start, end?, timeZone? } with ISO dates, got ${JSON.stringify(value)}`,
      );
    }
    if (
      value.end !== undefined &&
      value.end !== null &&
      (typeof value.end !== 'string' || !ISO_DATE.test(value.end))
    ) {
      this.fail(`${path}.end`, 'expected an ISO date or null');
    }
  }

  richText(path: string, value: unknown): void {
    if (typeof value === 'string') return;
    if (!Array.isArray(value)) return this.fail(path, 'expected a string or an array of rich text items');
    value.forEach((item: unknown, i) => {
      const at = `${path}[${i}]`;
      if (!isObject(item)) return this.fail(at, 'expected an object');
      if (item.color !== undefined && !(TEXT_COLORS as readonly unknown[]).includes(item.color)) {
        this.fail(`${at}.color`, `unknown color ${JSON.stringify(item.color)}`);
      }
      if (typeof item.text === 'string') {
        if (item.text.length > 2000) this.fail(`${at}.text`, 'Notion limits a text item to 2000 characters');
        if (item.link !== undefined && typeof item.link !== 'string')
          this.fail(`${at}.link`, 'expected a URL');
        return;
      }
      if (typeof item.equation === 'string') return;
      if (!isObject(item.mention)) return this.fail(at, 'expected { text }, { mention } or { equation }');
      const m = item.mention;
      if (typeof m.page === 'string') {
        if (!this.refs.hasPage(normalizeId(m.page) ?? ''))
          this.fail(`${at}.mention.page`, `unknown page ${m.page}`);
      } else if (typeof m.database === 'string') {
        if (!this.refs.hasDatabase(normalizeId(m.database) ?? '')) {
          this.fail(`${at}.mention.database`, `unknown database ${m.database}`);
        }
      } else if (typeof m.user === 'string') this.user(`${at}.mention.user`, m.user);
      else if (m.date !== undefined) this.date(`${at}.mention.date`, m.date);
      else this.fail(`${at}.mention`, 'expected page, database, user or date');
    });
  }

  private claim(path: string, id: unknown): string | undefined {
    const norm = typeof id === 'string' ? normalizeId(id) : undefined;
    if (!norm) {
      this.fail(path, `expected a UUID, got ${JSON.stringify(id)}`);
      return undefined;
    }
    if (!this.refs.claimBlockId(norm)) this.fail(path, `id ${id} is already used`);
    else this.blockIds.add(norm);
    return norm;
  }

  /** `containerId`: the page or block these blocks belong to (a synthetic key for blocks without ids). */
  blocks(path: string, blocks: unknown, containerId: string): void {
    if (blocks === undefined) return;
    if (!Array.isArray(blocks)) return this.fail(path, 'expected an array of blocks');
    blocks.forEach((block: unknown, i) => {
      const at = `${path}[${i}]`;
      if (!isObject(block)) return this.fail(at, 'expected a block object');
      this.audit(at, block, true);
      let id: string | undefined;
      if (block.type === 'child_page' || block.type === 'child_database') {
        if (block.id !== undefined)
          this.fail(`${at}.id`, `a ${block.type} block's id is its target's id; omit it`);
      } else if (block.id !== undefined) id = this.claim(`${at}.id`, block.id);
      const own = id ?? `${containerId}#${i}`;
      this.block(at, block, own, containerId);
    });
  }

  private block(at: string, b: Json, ownId: string, containerId: string): void {
    const caption = () => b.caption !== undefined && this.richText(`${at}.caption`, b.caption);
    switch (b.type) {
      case 'paragraph':
      case 'bulleted_list_item':
      case 'numbered_list_item':
      case 'quote':
      case 'toggle':
      case 'to_do':
      case 'callout':
      case 'heading_1':
      case 'heading_2':
      case 'heading_3':
        this.richText(`${at}.text`, b.text);
        if (b.type === 'to_do' && b.checked !== undefined && typeof b.checked !== 'boolean') {
          this.fail(`${at}.checked`, 'expected a boolean');
        }
        if (b.type === 'callout' && b.icon !== undefined && typeof b.icon !== 'string') {
          this.fail(`${at}.icon`, 'expected an emoji');
        }
        if (String(b.type).startsWith('heading_') && b.children !== undefined && !b.toggleable) {
          this.fail(`${at}.children`, 'only toggleable headings have children');
        }
        return this.blocks(`${at}.children`, b.children, ownId);
      case 'code':
        if (typeof b.code !== 'string') this.fail(`${at}.code`, 'expected a string');
        if (typeof b.language !== 'string')
          this.fail(`${at}.language`, 'expected a language such as "typescript"');
        return void caption();
      case 'equation':
        if (typeof b.expression !== 'string') this.fail(`${at}.expression`, 'expected a KaTeX string');
        return;
      case 'divider':
        return;
      case 'table': {
        const rows = b.rows;
        if (!Array.isArray(rows) || rows.length === 0)
          return this.fail(`${at}.rows`, 'expected at least one row');
        const width = Array.isArray(rows[0]) ? rows[0].length : 0;
        if (width === 0) this.fail(`${at}.rows[0]`, 'expected at least one cell');
        rows.forEach((row: unknown, r) => {
          if (!Array.isArray(row) || row.length !== width) {
            return this.fail(`${at}.rows[${r}]`, `expected ${width} cells, like the first row`);
          }
          row.forEach((cell: unknown, c) => this.richText(`${at}.rows[${r}][${c}]`, cell));
        });
        return;
      }
      case 'column_list': {
        const columns = b.columns;
        if (!Array.isArray(columns) || columns.length < 2)
          return this.fail(`${at}.columns`, 'expected 2+ columns');
        columns.forEach((column: unknown, c) => {
          const cAt = `${at}.columns[${c}]`;
          if (!isObject(column)) return this.fail(cAt, 'expected { children }');
          const columnId = column.id !== undefined ? this.claim(`${cAt}.id`, column.id) : undefined;
          if (column.widthRatio !== undefined && typeof column.widthRatio !== 'number') {
            this.fail(`${cAt}.widthRatio`, 'expected a number');
          }
          if (!Array.isArray(column.children) || column.children.length === 0) {
            return this.fail(`${cAt}.children`, 'a column needs at least one block');
          }
          this.blocks(`${cAt}.children`, column.children, columnId ?? `${ownId}#${c}`);
        });
        return;
      }
      case 'synced_block':
        if (b.syncedFrom !== undefined) {
          if (b.children !== undefined) this.fail(at, 'a synced block reference has no children of its own');
          this.syncedReferences.push({ path: `${at}.syncedFrom`, from: String(b.syncedFrom) });
          return;
        }
        if (b.id === undefined)
          this.fail(`${at}.id`, 'an original synced block needs an id so references can name it');
        else this.syncedOriginals.add(ownId);
        return this.blocks(`${at}.children`, b.children, ownId);
      case 'child_page': {
        const pageId = normalizeId(String(b.pageId));
        if (!pageId || !this.refs.hasPage(pageId))
          return this.fail(`${at}.pageId`, `unknown page ${JSON.stringify(b.pageId)}`);
        this.childPageRefs.set(pageId, [...(this.childPageRefs.get(pageId) ?? []), containerId]);
        return;
      }
      case 'child_database': {
        const databaseId = normalizeId(String(b.databaseId));
        if (!databaseId || !this.refs.hasDatabase(databaseId)) {
          return this.fail(`${at}.databaseId`, `unknown database ${JSON.stringify(b.databaseId)}`);
        }
        this.childDatabaseRefs.set(databaseId, [
          ...(this.childDatabaseRefs.get(databaseId) ?? []),
          containerId,
        ]);
        return;
      }
      case 'link_to_page':
        if (typeof b.pageId === 'string') {
          if (!this.refs.hasPage(normalizeId(b.pageId) ?? ''))
            this.fail(`${at}.pageId`, `unknown page ${b.pageId}`);
        } else if (typeof b.databaseId === 'string') {
          if (!this.refs.hasDatabase(normalizeId(b.databaseId) ?? '')) {
            this.fail(`${at}.databaseId`, `unknown database ${b.databaseId}`);
          }
        } else this.fail(at, 'expected pageId or databaseId');
        return;
      case 'bookmark':
      case 'embed':
        if (typeof b.url !== 'string' || !/^https?:\/\//.test(b.url))
          this.fail(`${at}.url`, 'expected an http(s) URL');
        return void caption();
      case 'image':
      case 'file':
      case 'pdf': {
        const source = b.source;
        const ok =
          isObject(source) &&
          (typeof source.file === 'string' ||
            (typeof source.external === 'string' && /^https?:\/\//.test(source.external)));
        if (!ok) this.fail(`${at}.source`, 'expected { file: name } or { external: http(s) URL }');
        if (b.name !== undefined && typeof b.name !== 'string') this.fail(`${at}.name`, 'expected a string');
        return void caption();
      }
      default:
        this.fail(`${at}.type`, `unknown block type ${JSON.stringify(b.type)}`);
    }
  }

  propertyValue(at: string, prop: PropertySchemaInput, value: unknown): void {
    if (COMPUTED_PROPERTY_TYPES.has(prop.type)) {
      return this.fail(at, `${prop.type} values are computed by Notion; do not set them`);
    }
    const options = 'options' in prop ? new Set(prop.options.map((o) => o.name)) : new Set<string>();
    const expect = (ok: boolean, what: string) => {
      if (!ok) this.fail(at, `expected ${what} for a ${prop.type} property, got ${JSON.stringify(value)}`);
    };
    switch (prop.type) {
      case 'title':
      case 'rich_text':
        return this.richText(at, value);
      case 'number':
        return expect(value === null || typeof value === 'number', 'a number or null');
      case 'select':
      case 'status':
        if (value !== null && (typeof value !== 'string' || !options.has(value))) {
          this.fail(at, `unknown option ${JSON.stringify(value)} (options: ${[...options].join(', ')})`);
        }
        return;
      case 'multi_select':
        if (!Array.isArray(value)) return expect(false, 'an array of option names');
        value.forEach((v: unknown) => {
          if (typeof v !== 'string' || !options.has(v)) this.fail(at, `unknown option ${JSON.stringify(v)}`);
        });
        return;
      case 'date':
        if (value !== null) this.date(at, value);
        return;
      case 'checkbox':
        return expect(typeof value === 'boolean', 'a boolean');
      case 'url':
      case 'email':
      case 'phone_number':
        return expect(value === null || typeof value === 'string', 'a string or null');
      case 'people':
        if (!Array.isArray(value)) return expect(false, 'an array of user ids');
        value.forEach((v: unknown, i) => this.user(`${at}[${i}]`, v));
        return;
      case 'relation': {
        if (!Array.isArray(value)) return expect(false, 'an array of page ids');
        const target = normalizeId(prop.dataSourceId);
        value.forEach((v: unknown, i) => {
          if (this.refs.rowDataSource(normalizeId(String(v)) ?? '') !== target) {
            this.fail(
              `${at}[${i}]`,
              `expected a row of data source ${prop.dataSourceId}, got ${JSON.stringify(v)}`,
            );
          }
        });
        return;
      }
      case 'formula': {
        const keys = isObject(value) ? Object.keys(value) : [];
        const ok = keys.length === 1 && ['string', 'number', 'boolean', 'date'].includes(keys[0]);
        return expect(ok, '{ string } | { number } | { boolean } | { date }');
      }
      case 'files':
        if (!Array.isArray(value)) return expect(false, 'an array of { name, url? }');
        value.forEach((f: unknown, i) => {
          if (!isObject(f) || typeof f.name !== 'string') this.fail(`${at}[${i}]`, 'expected { name, url? }');
        });
        return;
      case 'unique_id':
        return expect(Number.isInteger(value), 'an integer');
    }
  }
}

/**
 * Checks a workspace fixture and throws a WorkspaceValidationError listing every problem with its path
 * (e.g. `pages[3].blocks[2].children[0].type: unknown block type "foo"`).
 */
export function validateWorkspace(input: unknown): asserts input is Workspace {
  if (!isObject(input)) throw new WorkspaceValidationError(['(root): expected an object']);
  const early: string[] = [];
  const ws = input;
  const workspace = ws.workspace;
  if (!isObject(workspace) || !normalizeId(String(workspace.id)) || typeof workspace.name !== 'string') {
    early.push('workspace: expected { id: UUID, name }');
  }
  const integration = ws.integration;
  if (!isObject(integration)) early.push('integration: expected { id, botId, name, token }');
  else {
    if (!normalizeId(String(integration.id))) early.push('integration.id: expected a UUID');
    if (!normalizeId(String(integration.botId))) early.push('integration.botId: expected a UUID');
    if (typeof integration.name !== 'string') early.push('integration.name: expected a string');
    if (typeof integration.token !== 'string' || integration.token.length < 8) {
      early.push('integration.token: expected a token of 8+ characters');
    }
    const info = integration.userInformation;
    if (info !== undefined && !['none', 'without_email', 'with_email'].includes(String(info))) {
      early.push('integration.userInformation: expected none, without_email or with_email');
    }
  }
  for (const key of ['users', 'pages', 'databases']) {
    if (!Array.isArray(ws[key]) || !(ws[key] as unknown[]).every(isObject)) {
      early.push(`${key}: expected an array of objects`);
    }
  }
  if (early.length > 0) throw new WorkspaceValidationError(early);

  const users = ws.users as Json[];
  const pages = ws.pages as Json[];
  const databases = ws.databases as Json[];
  const ids = new Map<string, string>();
  const problems: string[] = [];
  const claimId = (path: string, id: unknown): string | undefined => {
    const norm = typeof id === 'string' ? normalizeId(id) : undefined;
    if (!norm) {
      problems.push(`${path}: expected a UUID, got ${JSON.stringify(id)}`);
      return undefined;
    }
    const previous = ids.get(norm);
    if (previous) problems.push(`${path}: id ${id} is already used by ${previous}`);
    else ids.set(norm, path);
    return norm;
  };

  const userIds = new Set<string>();
  claimId('integration.botId', (integration as Json).botId);
  userIds.add(normalizeId(String((integration as Json).botId))!);
  users.forEach((user, i) => {
    const id = claimId(`users[${i}].id`, user.id);
    if (id) userIds.add(id);
    if (typeof user.name !== 'string') problems.push(`users[${i}].name: expected a string`);
  });

  const pageById = new Map<string, { page: Json; path: string }>();
  const databaseById = new Map<string, { database: Json; path: string }>();
  const dataSourceById = new Map<string, { dataSource: DataSourceInput; database: Json; path: string }>();
  pages.forEach((page, i) => {
    const id = claimId(`pages[${i}].id`, page.id);
    if (id) pageById.set(id, { page, path: `pages[${i}]` });
  });
  databases.forEach((database, i) => {
    const id = claimId(`databases[${i}].id`, database.id);
    if (id) databaseById.set(id, { database, path: `databases[${i}]` });
    const sources = database.dataSources;
    if (!Array.isArray(sources) || sources.length === 0 || !sources.every(isObject)) {
      return problems.push(`databases[${i}].dataSources: expected at least one data source`);
    }
    (sources as unknown as DataSourceInput[]).forEach((dataSource, j) => {
      const dsId = claimId(`databases[${i}].dataSources[${j}].id`, dataSource.id);
      if (dsId) dataSourceById.set(dsId, { dataSource, database, path: `databases[${i}].dataSources[${j}]` });
    });
  });

  const rowDataSource = (pageId: string) => {
    const parent = pageById.get(pageId)?.page.parent;
    return isObject(parent) && parent.type === 'data_source' ? normalizeId(String(parent.id)) : undefined;
  };
  const check = new FixtureChecker({
    hasUser: (id) => userIds.has(id),
    hasPage: (id) => pageById.has(id),
    hasDatabase: (id) => databaseById.has(id),
    rowDataSource,
    claimBlockId: (id) => {
      if (ids.has(id)) return false;
      ids.set(id, 'a block');
      return true;
    },
  });
  const fail = (path: string, message: string) => check.fail(path, message);

  const checkParent = (path: string, parent: unknown, allowed: string[]) => {
    if (!isObject(parent) || !allowed.includes(String(parent.type))) {
      return fail(path, `expected a parent of type ${allowed.join(' | ')}`);
    }
    if (parent.type === 'workspace' || parent.type === 'block') return; // blocks: checked once all are known
    const id = normalizeId(String(parent.id)) ?? '';
    const known = parent.type === 'page' ? pageById.has(id) : dataSourceById.has(id);
    if (!known) fail(`${path}.id`, `unknown ${parent.type} ${JSON.stringify(parent.id)}`);
  };

  pages.forEach((page, i) => {
    const at = `pages[${i}]`;
    check.audit(at, page);
    checkParent(`${at}.parent`, page.parent, ['workspace', 'page', 'block', 'data_source']);
    if (page.icon !== undefined && page.icon !== null && typeof page.icon !== 'string') {
      fail(`${at}.icon`, 'expected an emoji');
    }
    if (page.inTrash !== undefined && typeof page.inTrash !== 'boolean')
      fail(`${at}.inTrash`, 'expected a boolean');
    if (page.shared !== undefined && typeof page.shared !== 'boolean')
      fail(`${at}.shared`, 'expected a boolean');
    const parent = page.parent as Json | undefined;
    if (parent?.type === 'data_source') {
      if (page.title !== undefined)
        fail(`${at}.title`, 'a database row takes its title from its title property');
      const ds = dataSourceById.get(normalizeId(String(parent.id)) ?? '')?.dataSource;
      const values = page.properties;
      if (ds && !isObject(values)) fail(`${at}.properties`, 'expected property values by name');
      else if (ds && isObject(values)) {
        const schema = new Map((Array.isArray(ds.properties) ? ds.properties : []).map((p) => [p.name, p]));
        for (const [name, value] of Object.entries(values)) {
          const prop = schema.get(name);
          if (!prop)
            fail(`${at}.properties`, `data source "${ds.name}" has no property ${JSON.stringify(name)}`);
          else check.propertyValue(`${at}.properties[${JSON.stringify(name)}]`, prop, value);
        }
        const title = [...schema.values()].find((p) => p.type === 'title');
        if (title && values[title.name] === undefined)
          fail(`${at}.properties`, `missing the title "${title.name}"`);
      }
    } else {
      if (page.title === undefined) fail(`${at}.title`, 'expected a title');
      else check.richText(`${at}.title`, page.title);
      if (page.properties !== undefined) fail(`${at}.properties`, 'only database rows have properties');
    }
    check.blocks(`${at}.blocks`, page.blocks, normalizeId(String(page.id)) ?? at);
  });

  databases.forEach((database, i) => {
    const at = `databases[${i}]`;
    check.audit(at, database);
    check.richText(`${at}.title`, database.title);
    if (database.description !== undefined) check.richText(`${at}.description`, database.description);
    checkParent(`${at}.parent`, database.parent, ['workspace', 'page', 'block']);
    if (!Array.isArray(database.dataSources)) return;
    (database.dataSources as DataSourceInput[]).forEach((dataSource, j) => {
      const dsAt = `${at}.dataSources[${j}]`;
      if (typeof dataSource.name !== 'string') fail(`${dsAt}.name`, 'expected a string');
      if (!Array.isArray(dataSource.properties)) return fail(`${dsAt}.properties`, 'expected an array');
      checkSchema(dsAt, dataSource);
    });
  });

  function checkSchema(dsAt: string, dataSource: DataSourceInput) {
    const names = new Set<string>();
    const titles = dataSource.properties.filter((p) => p?.type === 'title');
    if (titles.length !== 1)
      fail(`${dsAt}.properties`, `expected exactly one title property, got ${titles.length}`);
    dataSource.properties.forEach((prop, k) => {
      const at = `${dsAt}.properties[${k}]`;
      if (!isObject(prop) || typeof prop.name !== 'string') return fail(at, 'expected { name, type }');
      if (names.has(prop.name)) fail(`${at}.name`, `duplicate property name ${JSON.stringify(prop.name)}`);
      names.add(prop.name);
      if (!(PROPERTY_TYPES as readonly string[]).includes(prop.type)) {
        return fail(`${at}.type`, `unknown property type ${JSON.stringify(prop.type)}`);
      }
      if (prop.type === 'select' || prop.type === 'multi_select' || prop.type === 'status') {
        if (!Array.isArray(prop.options))
          return fail(`${at}.options`, 'expected an array of { name, color? }');
        prop.options.forEach((o, n) => {
          if (o.color !== undefined && !(SELECT_COLORS as readonly string[]).includes(o.color)) {
            fail(`${at}.options[${n}].color`, `unknown color ${JSON.stringify(o.color)}`);
          }
        });
      }
      if (prop.type === 'status') {
        const optionNames = new Set(prop.options.map((o) => o.name));
        if (!Array.isArray(prop.groups))
          return fail(`${at}.groups`, 'expected groups such as To-do / In progress');
        prop.groups.forEach((g, n) =>
          g.options.forEach((o) => {
            if (!optionNames.has(o)) fail(`${at}.groups[${n}]`, `unknown option ${JSON.stringify(o)}`);
          }),
        );
      }
      if (prop.type === 'relation' && !dataSourceById.has(normalizeId(String(prop.dataSourceId)) ?? '')) {
        fail(`${at}.dataSourceId`, `unknown data source ${JSON.stringify(prop.dataSourceId)}`);
      }
      if (prop.type === 'rollup') {
        const relation = dataSource.properties.find((p) => p.name === prop.relation);
        if (!relation || relation.type !== 'relation') {
          fail(
            `${at}.relation`,
            `expected the name of a relation property, got ${JSON.stringify(prop.relation)}`,
          );
        } else {
          const target = dataSourceById.get(normalizeId(relation.dataSourceId) ?? '')?.dataSource;
          if (target && !target.properties.some((p) => p.name === prop.property)) {
            fail(
              `${at}.property`,
              `data source "${target.name}" has no property ${JSON.stringify(prop.property)}`,
            );
          }
        }
        if (!(ROLLUP_FUNCTIONS as readonly string[]).includes(prop.function)) {
          fail(`${at}.function`, `unsupported rollup function ${JSON.stringify(prop.function)}`);
        }
      }
      if (prop.type === 'formula' && typeof prop.expression !== 'string')
        fail(`${at}.expression`, 'expected a string');
    });
  }

  // Placement of sub-pages and databases against their declared parents; synced block references.
  const checkPlacement = (kind: 'page' | 'database', path: string, id: string, parent: unknown) => {
    if (!isObject(parent)) return;
    const placedIn = (kind === 'page' ? check.childPageRefs : check.childDatabaseRefs).get(id) ?? [];
    if (placedIn.length > 1) return fail(path, `${placedIn.length} child_${kind} blocks name this ${kind}`);
    if (parent.type === 'workspace' || parent.type === 'data_source') {
      if (placedIn.length > 0)
        fail(path, `a child_${kind} block names this ${kind}, but its parent is ${parent.type}`);
      return;
    }
    const parentId = normalizeId(String(parent.id));
    if (parent.type === 'block' && !check.blockIds.has(parentId ?? '')) {
      return fail(
        `${path}.parent.id`,
        `unknown block ${JSON.stringify(parent.id)} (give that block an explicit id)`,
      );
    }
    if (placedIn.length === 1 && placedIn[0] !== parentId) {
      fail(
        path,
        `the child_${kind} block naming it is not directly inside its parent ${parent.type} ${parent.id}`,
      );
    }
    if (placedIn.length === 0 && parent.type === 'block') {
      fail(path, `its parent is block ${parent.id}; put a child_${kind} block naming it inside that block`);
    }
  };
  for (const [id, { page, path }] of pageById) checkPlacement('page', path, id, page.parent);
  for (const [id, { database, path }] of databaseById) checkPlacement('database', path, id, database.parent);
  for (const { path, from } of check.syncedReferences) {
    if (!check.syncedOriginals.has(normalizeId(from) ?? '')) {
      fail(path, `expected the id of an original synced block, got ${JSON.stringify(from)}`);
    }
  }

  // Parent chains through pages and databases must end at the workspace.
  const parentOf = (id: string): string | undefined => {
    const page = pageById.get(id)?.page;
    const parent = (page ?? databaseById.get(id)?.database)?.parent;
    if (!isObject(parent)) return undefined;
    if (parent.type === 'page') return normalizeId(String(parent.id));
    if (parent.type === 'data_source') {
      return normalizeId(String(dataSourceById.get(normalizeId(String(parent.id)) ?? '')?.database.id ?? ''));
    }
    return undefined;
  };
  for (const [id, { path }] of [...pageById, ...databaseById]) {
    const seen = new Set<string>([id]);
    for (let cur = parentOf(id); cur; cur = parentOf(cur)) {
      if (seen.has(cur)) {
        fail(`${path}.parent`, 'parents form a cycle');
        break;
      }
      seen.add(cur);
    }
  }

  problems.push(...check.problems);
  if (problems.length > 0) throw new WorkspaceValidationError(problems);
}
