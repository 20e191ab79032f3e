import type { ParsedBlock, ParsedDocument } from '@trove/domain';
import type {
  BlockNode,
  NotionBlock,
  NotionPage,
  PageSnapshot,
  PropertyValue,
  RichText,
} from './notion-types';

/** Plain text of a rich-text array, keeping inline code and links readable as Markdown. */
export function richText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return (items as RichText[])
    .map((item) => {
      const text = item.plain_text ?? '';
      if (item.annotations?.code) return `\`${text}\``;
      if (item.href && !item.href.startsWith('/') && text.trim() && text !== item.href)
        return `[${text}](${item.href})`;
      return text;
    })
    .join('');
}

/** The title of a page: its `title`-typed property. */
export function pageTitle(page: Pick<NotionPage, 'properties'>): string {
  const property = Object.values(page.properties ?? {}).find((p) => p.type === 'title');
  return richText(property?.title).trim() || 'Untitled';
}

/** A block link as Notion forms it: page URL without dashes, then `#` and the block id without dashes. */
export function blockUrl(pageId: string, blockId?: string): string {
  const page = `https://www.notion.so/${pageId.replace(/-/g, '')}`;
  return blockId ? `${page}#${blockId.replace(/-/g, '')}` : page;
}

const LIST_TYPES = new Set(['bulleted_list_item', 'numbered_list_item', 'to_do']);
const HEADINGS: Record<string, number> = { heading_1: 1, heading_2: 2, heading_3: 3 };
/** Blocks that only group other blocks on the page. */
const CONTAINERS = new Set(['column_list', 'column', 'synced_block']);

/**
 * Renders a page as a parsed document: one block per Notion block (lists grouped), Markdown-like
 * text, heading paths from headings and toggles, and each block's id as its anchor.
 */
export function renderPage(snapshot: PageSnapshot): ParsedDocument {
  const blocks: ParsedBlock[] = [];
  const properties = renderProperties(snapshot);
  if (properties) blocks.push({ kind: 'list', text: properties, headingPath: [] });
  new Renderer(blocks).render(snapshot.blocks, []);
  const metadata: Record<string, string> = {
    notionPageId: snapshot.page.id,
    url: snapshot.page.url,
    lastEditedTime: snapshot.page.last_edited_time,
    breadcrumb: snapshot.breadcrumb.join(' / '),
  };
  if (snapshot.databaseName) metadata.database = snapshot.databaseName;
  if (blocks.length === 0)
    blocks.push({ kind: 'paragraph', text: snapshot.title, headingPath: [], anchor: undefined });
  return { title: snapshot.title, metadata, blocks };
}

class Renderer {
  private headings: { level: number; text: string }[] = [];

  constructor(private out: ParsedBlock[]) {}

  render(nodes: BlockNode[], context: string[]): void {
    for (let i = 0; i < nodes.length; i++) {
      const { block, children } = nodes[i];
      if (block.in_trash || block.archived) continue;
      if (LIST_TYPES.has(block.type)) {
        const items: BlockNode[] = [];
        while (i < nodes.length && LIST_TYPES.has(nodes[i].block.type)) items.push(nodes[i++]);
        i--;
        this.renderList(items, context);
        continue;
      }
      const level = HEADINGS[block.type];
      if (level) {
        const text = richText(payload(block).rich_text).trim();
        while (this.headings.length && this.headings[this.headings.length - 1].level >= level)
          this.headings.pop();
        if (text) this.headings.push({ level, text });
        if (children.length) this.render(children, context); // toggleable heading
        continue;
      }
      this.renderBlock(block, children, context);
    }
  }

  /**
   * Consecutive list items as one list block, anchored at its first item. Children of items are
   * rendered at any depth: prose stays in the list as indented lines; structured blocks (code,
   * tables, toggles with content) end the list block, are rendered as on the page with their own
   * anchors (a toggle's children with the item they sit under in their heading path), and the list
   * goes on in a new block anchored at its next line.
   */
  private renderList(items: BlockNode[], context: string[]): void {
    let lines: string[] = [];
    let anchor = '';
    const line = (text: string, blockId: string) => {
      if (!lines.length) anchor = blockId;
      lines.push(text);
    };
    const flush = () => {
      if (lines.length) this.emit('list', lines.join('\n'), context, anchor);
      lines = [];
    };
    /** `under`: the context with the item these nodes are children of, for a toggle among them. */
    const children = (nodes: BlockNode[], depth: number, under: string[] = context): void => {
      const indent = '  '.repeat(depth);
      for (const [node, index] of numbered(nodes)) {
        const { block } = node;
        if (block.in_trash || block.archived) continue;
        if (LIST_TYPES.has(block.type)) {
          item(node, index, depth);
          continue;
        }
        // Columns and synced blocks only group blocks: their children belong to the item.
        if (CONTAINERS.has(block.type)) {
          children(node.children, depth, under);
          continue;
        }
        const prose = HEADINGS[block.type]
          ? { text: richText(payload(block).rich_text).trim() }
          : block.type === 'toggle' && node.children.length
            ? undefined
            : proseOf(block);
        if (prose) {
          if (prose.text) line(prefixLines(prose.text, indent), block.id);
          children(node.children, depth + 1, under);
          continue;
        }
        const nested: ParsedBlock[] = [];
        const out = this.out;
        this.out = nested;
        try {
          // A toggle under an item usually explains the item (its reason, its details): the item
          // stays in its children's heading path. Code and tables keep the list's own context.
          this.renderBlock(block, node.children, block.type === 'toggle' ? under : context);
        } finally {
          this.out = out;
        }
        if (nested.length) {
          flush();
          out.push(...nested);
        }
      }
    };
    const item = (node: BlockNode, index: number, depth: number): void => {
      const data = payload(node.block);
      const marker =
        node.block.type === 'numbered_list_item'
          ? `${index + 1}.`
          : node.block.type === 'to_do'
            ? `- [${data.checked ? 'x' : ' '}]`
            : '-';
      const text = richText(data.rich_text).trim();
      line(`${'  '.repeat(depth)}${marker} ${text}`, node.block.id);
      children(node.children, depth + 1, text ? [...context, text] : context);
    };
    numbered(items).forEach(([node, index]) => {
      if (!node.block.in_trash && !node.block.archived) item(node, index, 0);
    });
    flush();
  }

  private renderBlock(block: NotionBlock, children: BlockNode[], context: string[]): void {
    const data = payload(block);
    const text = richText(data.rich_text).trim();
    if (block.type === 'toggle' && children.length) {
      // A toggle's summary is usually a question; its answer inherits it as context.
      this.render(children, text ? [...context, text] : context);
      return;
    }
    const prose = proseOf(block);
    if (prose) {
      if (prose.text) this.emit(prose.kind, prose.text, context, block.id);
      if (children.length) this.render(children, context);
      return;
    }
    switch (block.type) {
      case 'code': {
        const language = String(data.language ?? '').replace(/ /g, '-');
        const caption = richText(data.caption).trim();
        const code = richText(data.rich_text);
        const fenced = `\`\`\`${language === 'plain-text' ? '' : language}\n${code}\n\`\`\``;
        this.emit('code', caption ? `${fenced}\n${caption}` : fenced, context, block.id, language);
        break;
      }
      case 'table':
        this.emit('table', table(children, Boolean(data.has_column_header)), context, block.id);
        return;
      default:
        break; // divider, breadcrumb, table_of_contents, column_list, column, synced_block, unsupported…
    }
    if (children.length) this.render(children, context);
  }

  private emit(
    kind: ParsedBlock['kind'],
    text: string,
    context: string[],
    anchor: string,
    codeLanguage?: string,
  ) {
    const block: ParsedBlock = {
      kind,
      text,
      headingPath: [...this.headings.map((h) => h.text), ...context],
      anchor,
    };
    if (codeLanguage) block.codeLanguage = codeLanguage;
    this.out.push(block);
  }
}

function payload(block: NotionBlock): Record<string, unknown> {
  return (block[block.type] as Record<string, unknown> | undefined) ?? {};
}

/**
 * A block that renders as one piece of prose (kind and Markdown-like text, possibly empty), or
 * undefined for structured blocks (code, tables, containers). Its children render after it.
 */
function proseOf(block: NotionBlock): { kind: 'paragraph' | 'quote'; text: string } | undefined {
  const data = payload(block);
  const text = richText(data.rich_text).trim();
  switch (block.type) {
    case 'paragraph':
    case 'toggle':
      return { kind: 'paragraph', text };
    case 'quote':
      return { kind: 'quote', text: text && prefixLines(text, '> ') };
    case 'callout': {
      const icon = (data.icon as { emoji?: string } | undefined)?.emoji;
      return { kind: 'quote', text: text && prefixLines(icon ? `${icon} ${text}` : text, '> ') };
    }
    case 'equation':
      return { kind: 'paragraph', text: `$$${String(data.expression ?? '')}$$` };
    case 'bookmark':
    case 'embed':
    case 'link_preview': {
      const caption = richText(data.caption).trim();
      const url = String(data.url ?? '');
      return { kind: 'paragraph', text: url && (caption ? `[${caption}](${url})` : url) };
    }
    case 'image':
    case 'file':
    case 'pdf':
    case 'video':
    case 'audio': {
      // Notion-hosted file URLs expire after an hour: keep the name and caption, not the link.
      const caption = richText(data.caption).trim();
      const name = typeof data.name === 'string' ? data.name : '';
      const external = data.type === 'external' ? (data.external as { url?: string })?.url : undefined;
      const label = [name, caption].filter(Boolean).join(' — ');
      return {
        kind: 'paragraph',
        text:
          label || external
            ? `${capitalize(block.type)}: ${[label, external].filter(Boolean).join(' ')}`
            : '',
      };
    }
    case 'child_page':
      return { kind: 'paragraph', text: `Subpage: ${String(data.title ?? '')}` };
    case 'child_database':
      return { kind: 'paragraph', text: `Database: ${String(data.title ?? '')}` };
    default:
      return undefined;
  }
}

/** Pairs each node with its index in its run of same-type siblings (numbered lists restart at 1). */
function numbered(nodes: BlockNode[]): [BlockNode, number][] {
  let run = 0;
  return nodes.map((node, i) => {
    run = i > 0 && nodes[i - 1].block.type === node.block.type ? run + 1 : 0;
    return [node, run];
  });
}

function table(rows: BlockNode[], header: boolean): string {
  const cells = rows
    .filter((row) => row.block.type === 'table_row')
    .map((row) =>
      ((payload(row.block).cells as unknown[]) ?? []).map((cell) =>
        richText(cell).replace(/\|/g, '\\|').trim(),
      ),
    );
  if (cells.length === 0) return '';
  const width = Math.max(...cells.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  const head = header ? cells[0] : Array.from({ length: width }, () => '');
  const body = header ? cells.slice(1) : cells;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

function prefixLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/** Database row properties as a Markdown list (the title is the document title, so it is left out). */
function renderProperties(snapshot: PageSnapshot): string {
  const lines: string[] = [];
  for (const [name, property] of Object.entries(snapshot.page.properties ?? {})) {
    if (property.type === 'title') continue;
    const value = propertyText(property, snapshot.relationTitles).trim();
    if (value) lines.push(`- ${name}: ${value}`);
  }
  return lines.join('\n');
}

/** One property value as text; unknown types render as nothing rather than failing the page. */
export function propertyText(property: PropertyValue, relationTitles: Record<string, string> = {}): string {
  const value = property[property.type] as unknown;
  const named = (v: unknown) => (v as { name?: string } | null)?.name ?? '';
  switch (property.type) {
    case 'title':
    case 'rich_text':
      return richText(value);
    case 'number':
      return value === null || value === undefined ? '' : String(value);
    case 'select':
    case 'status':
      return named(value);
    case 'multi_select':
      return ((value as unknown[]) ?? []).map(named).join(', ');
    case 'date': {
      const date = value as { start?: string; end?: string | null } | null;
      return date?.start ? (date.end ? `${date.start} → ${date.end}` : date.start) : '';
    }
    case 'checkbox':
      return value ? 'yes' : 'no';
    case 'url':
    case 'email':
    case 'phone_number':
    case 'created_time':
    case 'last_edited_time':
      return typeof value === 'string' ? value : '';
    case 'people':
      return ((value as unknown[]) ?? []).map(named).filter(Boolean).join(', ');
    case 'created_by':
    case 'last_edited_by':
      return named(value);
    case 'relation':
      return ((value as { id: string }[]) ?? []).map((r) => relationTitles[r.id] ?? r.id).join(', ');
    case 'files':
      return ((value as unknown[]) ?? []).map(named).filter(Boolean).join(', ');
    case 'unique_id': {
      const id = value as { prefix?: string | null; number?: number | null } | null;
      return id?.number === undefined || id?.number === null
        ? ''
        : `${id.prefix ? `${id.prefix}-` : ''}${id.number}`;
    }
    case 'formula': {
      const formula = value as { type: string; [k: string]: unknown } | null;
      if (!formula) return '';
      const inner = formula[formula.type];
      if (formula.type === 'date') return (inner as { start?: string } | null)?.start ?? '';
      if (formula.type === 'boolean') return inner ? 'yes' : 'no';
      return inner === null || inner === undefined ? '' : String(inner);
    }
    case 'rollup': {
      const rollup = value as { type: string; [k: string]: unknown } | null;
      if (!rollup) return '';
      if (rollup.type === 'array') {
        return ((rollup.array as PropertyValue[]) ?? [])
          .map((item) => propertyText(item, relationTitles))
          .join(', ');
      }
      if (rollup.type === 'date') return (rollup.date as { start?: string } | null)?.start ?? '';
      const inner = rollup[rollup.type];
      return inner === null || inner === undefined ? '' : String(inner);
    }
    default:
      return '';
  }
}
