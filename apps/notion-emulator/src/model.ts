import { floorToMinute, normalizeId, stableId, stablePropertyId } from './ids';
import {
  FixtureChecker,
  validateWorkspace,
  WorkspaceValidationError,
  type BlockInput,
  type BlockType,
  type DataSourceInput,
  type IntegrationInput,
  type OptionInput,
  type ParentInput,
  type PropertySchemaInput,
  type PropertyValueInput,
  type RichTextInput,
  type SelectColor,
  type UserInput,
  type Workspace,
} from './workspace';

export type ParentRef =
  | { type: 'workspace' }
  | { type: 'page'; id: string }
  | { type: 'block'; id: string }
  | { type: 'data_source'; id: string };

export interface Audit {
  created: number;
  edited: number;
  createdBy: string;
  editedBy: string;
}

export interface PageNode extends Audit {
  id: string;
  parent: ParentRef;
  /** Title of a page outside databases; rows keep theirs in `properties`. */
  title: RichTextInput;
  icon: string | null;
  properties: Record<string, PropertyValueInput>;
  children: string[];
  inTrash: boolean;
  shared: boolean;
  uniqueId?: number;
}

export type BlockData =
  BlockInput | { type: 'table_row'; cells: RichTextInput[] } | { type: 'column'; widthRatio?: number };

export interface BlockNode extends Audit {
  id: string;
  type: BlockType;
  parent: { type: 'page' | 'block'; id: string };
  /** The page whose content this block is (for child_page blocks: the page that contains the link). */
  pageId: string;
  children: string[];
  data: BlockData;
}

export interface DatabaseNode extends Audit {
  id: string;
  title: RichTextInput;
  description: RichTextInput;
  parent: ParentRef;
  isInline: boolean;
  icon: string | null;
  inTrash: boolean;
  shared: boolean;
  dataSources: string[];
}

export interface CompiledOption {
  id: string;
  name: string;
  color: SelectColor;
  description: string | null;
}

export interface PropertyNode {
  id: string;
  name: string;
  type: PropertySchemaInput['type'];
  description: string | null;
  schema: PropertySchemaInput;
  options: CompiledOption[];
  groups: { id: string; name: string; color: SelectColor; option_ids: string[] }[];
}

export interface DataSourceNode {
  id: string;
  databaseId: string;
  name: string;
  properties: PropertyNode[];
  /** Row page ids in creation order. */
  rows: string[];
  nextUniqueId: number;
}

/** Input of `addPage`: like a fixture page, with id, times and authors defaulted. */
export interface AddPageInput {
  id?: string;
  parent: ParentInput;
  title?: RichTextInput;
  icon?: string | null;
  properties?: Record<string, PropertyValueInput>;
  blocks?: BlockInput[];
  createdBy?: string;
}

const MAX_DEPTH = 200;

/**
 * The workspace as the emulator holds it: nodes by id, with sharing, trash and edit times, and the
 * mutations tests use. Rendering to API objects lives in render.ts.
 */
export class WorkspaceModel {
  readonly workspace: { id: string; name: string };
  readonly integration: IntegrationInput & { botId: string };
  readonly users = new Map<string, UserInput>();
  readonly pages = new Map<string, PageNode>();
  readonly blocks = new Map<string, BlockNode>();
  readonly databases = new Map<string, DatabaseNode>();
  readonly dataSources = new Map<string, DataSourceNode>();
  private generated = 0;

  constructor(input: Workspace) {
    validateWorkspace(input);
    const ws = structuredClone(input);
    this.workspace = { id: normalizeId(ws.workspace.id)!, name: ws.workspace.name };
    this.integration = { ...ws.integration, botId: normalizeId(ws.integration.botId)! };
    for (const user of ws.users)
      this.users.set(normalizeId(user.id)!, { ...user, id: normalizeId(user.id)! });

    for (const database of ws.databases) {
      const id = normalizeId(database.id)!;
      this.databases.set(id, {
        id,
        title: database.title,
        description: database.description ?? [],
        parent: this.parentRef(database.parent),
        isInline: database.isInline ?? false,
        icon: database.icon ?? null,
        inTrash: database.inTrash ?? false,
        shared: database.shared ?? true,
        dataSources: database.dataSources.map((ds) => normalizeId(ds.id)!),
        ...this.audit(database),
      });
      for (const ds of database.dataSources) this.addDataSource(ds, id);
    }

    for (const page of ws.pages) {
      const id = normalizeId(page.id)!;
      this.pages.set(id, {
        id,
        parent: this.parentRef(page.parent),
        title: page.title ?? [],
        icon: page.icon ?? null,
        properties: page.properties ?? {},
        children: [],
        inTrash: page.inTrash ?? false,
        shared: page.shared ?? true,
        ...this.audit(page),
      });
    }
    for (const page of ws.pages) {
      const node = this.pages.get(normalizeId(page.id)!)!;
      node.children = this.compileBlocks(page.blocks ?? [], { type: 'page', id: node.id }, node.id, node);
    }
    // Sub-pages and databases that no block places go at the end of their parent page.
    for (const node of this.pages.values()) {
      if (node.parent.type === 'page' && !this.blocks.has(node.id)) {
        this.linkChild('child_page', node.id, node.parent.id, node);
      }
      if (node.parent.type === 'data_source') {
        const ds = this.dataSources.get(node.parent.id)!;
        ds.rows.push(node.id);
      }
    }
    for (const node of this.databases.values()) {
      if (node.parent.type === 'page' && !this.blocks.has(node.id)) {
        this.linkChild('child_database', node.id, node.parent.id, node);
      }
    }
    for (const ds of this.dataSources.values()) {
      for (const rowId of ds.rows) {
        const row = this.pages.get(rowId)!;
        const prop = ds.properties.find((p) => p.type === 'unique_id');
        const explicit = prop ? row.properties[prop.name] : undefined;
        row.uniqueId = typeof explicit === 'number' ? explicit : ds.nextUniqueId;
        ds.nextUniqueId = Math.max(ds.nextUniqueId, row.uniqueId) + 1;
      }
    }
    // A page was last edited no earlier than its newest block.
    for (const block of this.blocks.values()) {
      const page = this.pages.get(block.pageId);
      if (
        page &&
        block.type !== 'child_page' &&
        block.type !== 'child_database' &&
        block.edited > page.edited
      ) {
        page.edited = block.edited;
        page.editedBy = block.editedBy;
      }
    }
  }

  /** The user mutations are attributed to: the first person in the workspace, else the bot. */
  get defaultEditor(): string {
    return this.users.keys().next().value ?? this.integration.botId;
  }

  // ---- visibility and trash ------------------------------------------------------------------

  pageVisible(id: string, depth = 0): boolean {
    const page = this.pages.get(id);
    return !!page && page.shared && this.parentVisible(page.parent, depth + 1);
  }

  databaseVisible(id: string, depth = 0): boolean {
    const database = this.databases.get(id);
    return !!database && database.shared && this.parentVisible(database.parent, depth + 1);
  }

  /** A block is visible when the page it belongs to is; a page's or database's own block when they are. */
  blockVisible(id: string, depth = 0): boolean {
    if (this.pages.has(id)) return this.pageVisible(id, depth);
    if (this.databases.has(id)) return this.databaseVisible(id, depth);
    const block = this.blocks.get(id);
    return !!block && this.pageVisible(block.pageId, depth + 1);
  }

  private parentVisible(parent: ParentRef, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    switch (parent.type) {
      case 'workspace':
        return true;
      case 'page':
        return this.pageVisible(parent.id, depth);
      case 'block':
        return this.blockVisible(parent.id, depth);
      case 'data_source':
        return this.databaseVisible(this.dataSources.get(parent.id)!.databaseId, depth);
    }
  }

  /** In the trash itself or below something that is: such objects are left out of search and queries. */
  pageTrashed(id: string, depth = 0): boolean {
    const page = this.pages.get(id)!;
    return page.inTrash || this.parentTrashed(page.parent, depth + 1);
  }

  databaseTrashed(id: string, depth = 0): boolean {
    const database = this.databases.get(id)!;
    return database.inTrash || this.parentTrashed(database.parent, depth + 1);
  }

  private parentTrashed(parent: ParentRef, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    switch (parent.type) {
      case 'workspace':
        return false;
      case 'page':
        return this.pageTrashed(parent.id, depth);
      case 'block': {
        const block = this.blocks.get(parent.id)!;
        return this.pageTrashed(block.pageId, depth);
      }
      case 'data_source':
        return this.databaseTrashed(this.dataSources.get(parent.id)!.databaseId, depth);
    }
  }

  /**
   * The blocks listed as children of a page or block: a synced block reference lists its original's
   * children, and sub-pages or databases in the trash drop out of their parent's content.
   */
  childrenOf(id: string): BlockNode[] {
    const block = this.blocks.get(id);
    let ids: string[];
    if (this.pages.has(id)) ids = this.pages.get(id)!.children;
    else if (block?.data.type === 'synced_block' && 'syncedFrom' in block.data) {
      ids = this.blocks.get(normalizeId(block.data.syncedFrom)!)?.children ?? [];
    } else ids = block?.children ?? [];
    return ids
      .map((childId) => this.blocks.get(childId)!)
      .filter((child) => {
        if (child.type === 'child_page') return !this.pages.get(child.id)!.inTrash;
        if (child.type === 'child_database') return !this.databases.get(child.id)!.inTrash;
        return true;
      });
  }

  /** The page whose content a block (or the page itself) is. */
  containingPage(id: string): PageNode | undefined {
    return this.pages.get(id) ?? this.pages.get(this.blocks.get(id)?.pageId ?? '');
  }

  // ---- mutations (times are rounded down to the minute, like Notion's) -------------------------

  /** Replaces the text of a block (a page's or row's title when the id is a page). */
  editBlockText(blockId: string, text: string, now: number, by = this.defaultEditor): void {
    const id = this.requireId(blockId);
    const page = this.pages.get(id);
    if (page) {
      if (page.parent.type === 'data_source') {
        const title = this.dataSources.get(page.parent.id)!.properties.find((p) => p.type === 'title')!;
        page.properties[title.name] = text;
      } else page.title = text;
      return this.touch(page, now, by);
    }
    const block = this.blocks.get(id);
    if (!block) throw new Error(`editBlockText: no block ${blockId}`);
    const data = block.data;
    if ('text' in data) data.text = text;
    else if (data.type === 'code') data.code = text;
    else if (data.type === 'equation') data.expression = text;
    else throw new Error(`editBlockText: a ${block.type} block has no text`);
    this.touch(block, now, by);
    this.touch(this.pages.get(block.pageId)!, now, by);
  }

  /** Appends blocks to a page or block; returns the new top-level block ids. */
  appendBlocks(parentId: string, inputs: BlockInput[], now: number, by = this.defaultEditor): string[] {
    let id = this.requireId(parentId);
    let parentBlock = this.pages.has(id) ? undefined : this.blocks.get(id);
    // Appending to a synced block reference edits the original, as in Notion.
    if (parentBlock?.data.type === 'synced_block' && 'syncedFrom' in parentBlock.data) {
      id = normalizeId(parentBlock.data.syncedFrom)!;
      parentBlock = this.blocks.get(id)!;
    }
    const page = this.containingPage(id);
    const childless = ['child_page', 'child_database', 'table', 'column_list', 'table_row'];
    if (!page || (parentBlock && childless.includes(parentBlock.type))) {
      throw new Error(`appendBlocks: ${parentId} is not a page or a block that takes these children`);
    }
    const check = this.checker();
    check.blocks('blocks', inputs, `appended:${id}`);
    if (check.childPageRefs.size + check.childDatabaseRefs.size > 0) {
      check.fail('blocks', 'add sub-pages with addPage; databases cannot be added at run time');
    }
    this.checkSyncedReferences(check);
    if (check.problems.length > 0) throw new WorkspaceValidationError(check.problems);
    const audit = { created: now, edited: now, createdBy: by, editedBy: by };
    const stamped = inputs.map((input) => this.withGeneratedIds(input));
    const created = this.compileBlocks(stamped, { type: parentBlock ? 'block' : 'page', id }, page.id, audit);
    (parentBlock ?? page).children.push(...created);
    this.touch(page, now, by);
    return created;
  }

  /** Creates a page (a sub-page, a workspace page or a database row); returns its id. */
  addPage(input: AddPageInput, now: number): string {
    const id = input.id ? normalizeId(input.id) : stableId(`added-page/${this.generated++}/${now}`);
    if (!id || this.pages.has(id) || this.blocks.has(id))
      throw new Error(`addPage: bad or used id ${input.id}`);
    const by = input.createdBy ? normalizeId(input.createdBy)! : this.defaultEditor;
    const parent = this.parentRef(input.parent);
    const check = this.checker();
    if (parent.type === 'page' && !this.pages.has(parent.id)) check.fail('parent', 'unknown page');
    if (parent.type === 'block' && (!this.blocks.has(parent.id) || this.pages.has(parent.id))) {
      check.fail('parent', 'unknown block');
    }
    const ds = parent.type === 'data_source' ? this.dataSources.get(parent.id) : undefined;
    if (parent.type === 'data_source' && !ds) check.fail('parent', 'unknown data source');
    if (ds) {
      for (const [name, value] of Object.entries(input.properties ?? {})) {
        const prop = ds.properties.find((p) => p.name === name);
        if (!prop) check.fail(`properties.${name}`, `no such property in "${ds.name}"`);
        else check.propertyValue(`properties.${name}`, prop.schema, value);
      }
      const title = ds.properties.find((p) => p.type === 'title')!;
      if (input.properties?.[title.name] === undefined)
        check.fail('properties', `missing the title "${title.name}"`);
    } else if (input.title === undefined) check.fail('title', 'expected a title');
    else check.richText('title', input.title);
    check.blocks('blocks', input.blocks, `added:${id}`);
    if (check.childPageRefs.size + check.childDatabaseRefs.size > 0) {
      check.fail('blocks', 'sub-pages are added with their own addPage call');
    }
    this.checkSyncedReferences(check);
    if (check.problems.length > 0) throw new WorkspaceValidationError(check.problems);

    const node: PageNode = {
      id,
      parent,
      title: ds ? [] : input.title!,
      icon: input.icon ?? null,
      properties: ds ? { ...input.properties } : {},
      children: [],
      inTrash: false,
      shared: true,
      created: now,
      edited: now,
      createdBy: by,
      editedBy: by,
    };
    this.pages.set(id, node);
    const stamped = (input.blocks ?? []).map((b) => this.withGeneratedIds(b));
    node.children = this.compileBlocks(stamped, { type: 'page', id }, id, node);
    if (ds) {
      ds.rows.push(id);
      node.uniqueId = ds.nextUniqueId++;
    } else if (parent.type === 'page' || parent.type === 'block') {
      // The new child_page block is an edit of the parent page's content.
      this.linkChild('child_page', id, parent.id, node);
      this.touch(this.containingPage(parent.id)!, now, by);
    }
    return id;
  }

  /** Moves a page to the trash (or back): the page's own edit; its link leaves (or rejoins) the parent page. */
  setTrashed(pageId: string, inTrash: boolean, now: number, by = this.defaultEditor): void {
    const page = this.requirePage(pageId, inTrash ? 'trashPage' : 'restorePage');
    if (page.inTrash === inTrash) return;
    page.inTrash = inTrash;
    this.touch(page, now, by);
    if (page.parent.type === 'page' || page.parent.type === 'block') {
      this.touch(this.containingPage(page.parent.id)!, now, by);
    }
  }

  /** Removes the integration's access to a page (and so to everything below it). No edit time changes. */
  unshare(pageId: string): void {
    this.requirePage(pageId, 'unsharePage').shared = false;
  }

  setRowProperty(
    pageId: string,
    name: string,
    value: PropertyValueInput,
    now: number,
    by = this.defaultEditor,
  ): void {
    const page = this.requirePage(pageId, 'setRowProperty');
    if (page.parent.type !== 'data_source')
      throw new Error(`setRowProperty: ${pageId} is not a database row`);
    const ds = this.dataSources.get(page.parent.id)!;
    const prop = ds.properties.find((p) => p.name === name || p.id === name);
    if (!prop) throw new Error(`setRowProperty: data source "${ds.name}" has no property ${name}`);
    const check = this.checker();
    check.propertyValue(name, prop.schema, value);
    if (check.problems.length > 0) throw new WorkspaceValidationError(check.problems);
    if (prop.type === 'unique_id') page.uniqueId = value as number;
    else page.properties[prop.name] = value;
    this.touch(page, now, by);
  }

  // ---- compilation helpers -------------------------------------------------------------------

  private audit(input: {
    createdTime: string;
    createdBy: string;
    lastEditedTime?: string;
    lastEditedBy?: string;
  }) {
    const created = Date.parse(input.createdTime);
    return {
      created,
      edited: input.lastEditedTime ? Date.parse(input.lastEditedTime) : created,
      createdBy: normalizeId(input.createdBy)!,
      editedBy: normalizeId(input.lastEditedBy ?? input.createdBy)!,
    };
  }

  private parentRef(parent: ParentInput): ParentRef {
    return parent.type === 'workspace'
      ? { type: 'workspace' }
      : { type: parent.type, id: normalizeId(parent.id)! };
  }

  private addDataSource(ds: DataSourceInput, databaseId: string): void {
    const id = normalizeId(ds.id)!;
    const used = new Set<string>();
    const properties = ds.properties.map((schema): PropertyNode => {
      let propId =
        schema.id ?? (schema.type === 'title' ? 'title' : stablePropertyId(`${id}/${schema.name}`));
      for (let n = 1; used.has(propId); n++) propId = stablePropertyId(`${id}/${schema.name}/${n}`);
      used.add(propId);
      const options =
        'options' in schema
          ? schema.options.map((o: OptionInput, i) => ({
              id: stableId(`${id}/${schema.name}/option/${o.name}`),
              name: o.name,
              color: o.color ?? (['default', 'gray', 'brown', 'orange', 'blue'] as const)[i % 5],
              description: o.description ?? null,
            }))
          : [];
      const groups =
        schema.type === 'status'
          ? schema.groups.map((g) => ({
              id: stableId(`${id}/${schema.name}/group/${g.name}`),
              name: g.name,
              color: g.color ?? 'gray',
              option_ids: g.options.map((name) => options.find((o) => o.name === name)!.id),
            }))
          : [];
      return {
        id: propId,
        name: schema.name,
        type: schema.type,
        description: schema.description ?? null,
        schema,
        options,
        groups,
      };
    });
    this.dataSources.set(id, { id, databaseId, name: ds.name, properties, rows: [], nextUniqueId: 1 });
  }

  /** Compiles fixture blocks into nodes; returns the top-level ids. Missing ids come from the position. */
  private compileBlocks(
    inputs: BlockInput[],
    parent: { type: 'page' | 'block'; id: string },
    pageId: string,
    defaults: Audit,
  ): string[] {
    return inputs.map((input, index) => {
      if (input.type === 'child_page' || input.type === 'child_database') {
        const targetId = normalizeId(input.type === 'child_page' ? input.pageId : input.databaseId)!;
        const target =
          input.type === 'child_page' ? this.pages.get(targetId)! : this.databases.get(targetId)!;
        this.blocks.set(targetId, {
          id: targetId,
          type: input.type,
          parent,
          pageId,
          children: [],
          data: input,
          created: target.created,
          edited: target.edited,
          createdBy: target.createdBy,
          editedBy: target.editedBy,
        });
        return targetId;
      }
      const id = input.id ? normalizeId(input.id)! : stableId(`${parent.id}/${index}`);
      const created = input.createdTime ? Date.parse(input.createdTime) : defaults.created;
      const createdBy = input.createdBy ? normalizeId(input.createdBy)! : defaults.createdBy;
      const audit: Audit = {
        created,
        createdBy,
        edited: input.lastEditedTime ? Date.parse(input.lastEditedTime) : created,
        editedBy: input.lastEditedBy ? normalizeId(input.lastEditedBy)! : createdBy,
      };
      const node: BlockNode = { id, type: input.type, parent, pageId, children: [], data: input, ...audit };
      this.blocks.set(id, node);
      const self = { type: 'block' as const, id };
      if (input.type === 'table') {
        node.children = input.rows.map((cells, r) => {
          const rowId = stableId(`${id}/row/${r}`);
          this.blocks.set(rowId, {
            id: rowId,
            type: 'table_row',
            parent: self,
            pageId,
            children: [],
            data: { type: 'table_row', cells },
            ...audit,
          });
          return rowId;
        });
      } else if (input.type === 'column_list') {
        node.children = input.columns.map((column, c) => {
          const columnId = column.id ? normalizeId(column.id)! : stableId(`${id}/column/${c}`);
          const columnNode: BlockNode = {
            id: columnId,
            type: 'column',
            parent: self,
            pageId,
            children: [],
            data: { type: 'column', widthRatio: column.widthRatio },
            ...audit,
          };
          this.blocks.set(columnId, columnNode);
          columnNode.children = this.compileBlocks(
            column.children,
            { type: 'block', id: columnId },
            pageId,
            audit,
          );
          return columnId;
        });
      } else if ('children' in input && input.children) {
        node.children = this.compileBlocks(input.children, self, pageId, audit);
      }
      return id;
    });
  }

  private linkChild(
    type: 'child_page' | 'child_database',
    id: string,
    containerId: string,
    target: Audit,
  ): void {
    const containerPage = this.containingPage(containerId)!;
    const container = this.pages.get(containerId) ?? this.blocks.get(containerId)!;
    const data: BlockInput = type === 'child_page' ? { type, pageId: id } : { type, databaseId: id };
    this.blocks.set(id, {
      id,
      type,
      parent: { type: this.pages.has(containerId) ? 'page' : 'block', id: containerId },
      pageId: containerPage.id,
      children: [],
      data,
      created: target.created,
      edited: target.edited,
      createdBy: target.createdBy,
      editedBy: target.editedBy,
    });
    container.children.push(id);
  }

  private withGeneratedIds(input: BlockInput): BlockInput {
    const copy = structuredClone(input);
    const stamp = (block: BlockInput) => {
      if (block.type !== 'child_page' && block.type !== 'child_database' && !block.id) {
        block.id = stableId(`generated-block/${this.generated++}`);
      }
      if ('children' in block && block.children) block.children.forEach(stamp);
      if (block.type === 'column_list') block.columns.forEach((column) => column.children.forEach(stamp));
    };
    stamp(copy);
    return copy;
  }

  private checker(): FixtureChecker {
    return new FixtureChecker({
      hasUser: (id) => this.users.has(id) || id === this.integration.botId,
      hasPage: (id) => this.pages.has(id),
      hasDatabase: (id) => this.databases.has(id),
      rowDataSource: (id) => {
        const parent = this.pages.get(id)?.parent;
        return parent?.type === 'data_source' ? parent.id : undefined;
      },
      claimBlockId: (id) => !this.blocks.has(id) && !this.pages.has(id) && !this.databases.has(id),
    });
  }

  private checkSyncedReferences(check: FixtureChecker): void {
    for (const { path, from } of check.syncedReferences) {
      const original = this.blocks.get(normalizeId(from) ?? '');
      if (!original || original.data.type !== 'synced_block' || 'syncedFrom' in original.data) {
        check.fail(path, `expected the id of an original synced block, got ${JSON.stringify(from)}`);
      }
    }
  }

  private requireId(id: string): string {
    const norm = normalizeId(id);
    if (!norm) throw new Error(`not a Notion id: ${id}`);
    return norm;
  }

  private requirePage(pageId: string, helper: string): PageNode {
    const page = this.pages.get(this.requireId(pageId));
    if (!page) throw new Error(`${helper}: no page ${pageId}`);
    return page;
  }

  private touch(node: Audit, now: number, by: string): void {
    node.edited = floorToMinute(now);
    node.editedBy = by;
  }
}
