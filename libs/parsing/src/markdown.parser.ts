import MarkdownIt from 'markdown-it';
type Token = ReturnType<MarkdownIt['parse']>[number];
import { parse as parseYaml } from 'yaml';
import { basename, extname } from 'node:path';
import type { ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { decodeUtf8, MEDIA_TYPES } from './detect';

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const BLOCK_KINDS: Record<string, ParsedBlock['kind']> = {
  paragraph_open: 'paragraph',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  blockquote_open: 'quote',
  table_open: 'table',
  fence: 'code',
  code_block: 'code',
  html_block: 'paragraph',
};

/**
 * Markdown via markdown-it (CommonMark + GFM tables). Each top-level block keeps its Markdown
 * source, so lists, tables and code stay readable in chunks; headings build the heading path.
 */
export class MarkdownParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.markdown] as const;
  private readonly md = new MarkdownIt('commonmark').enable('table');

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const source = decodeUtf8(input.fileName, input.data);
    const { body, metadata } = splitFrontMatter(input.fileName, source);
    const lines = body.split(/\r?\n/);
    const tokens = this.md.parse(body, {});

    const blocks: ParsedBlock[] = [];
    const headings: { level: number; text: string }[] = [];
    let firstH1: string | undefined;

    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.level !== 0 || token.nesting === -1) continue;
      if (token.type === 'heading_open') {
        const level = Number(token.tag.slice(1));
        const text = inlineText(tokens[i + 1]);
        while (headings.length && headings[headings.length - 1].level >= level) headings.pop();
        if (text) headings.push({ level, text });
        if (level === 1 && text && !firstH1) firstH1 = text;
        continue;
      }
      const kind = BLOCK_KINDS[token.type];
      if (!kind || !token.map) continue;
      const text = lines.slice(token.map[0], token.map[1]).join('\n').trim();
      if (!text) continue;
      const block: ParsedBlock = { kind, text, headingPath: headings.map((h) => h.text) };
      if (token.type === 'fence') {
        const language = token.info.trim().split(/\s+/)[0];
        if (language) block.codeLanguage = language;
      }
      blocks.push(block);
    }

    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${input.fileName} has no text content (only headings, front matter or white space)`,
      );
    }
    const title = metadata.title || firstH1 || basename(input.fileName, extname(input.fileName));
    return { title, metadata, blocks };
  }
}

function inlineText(token: Token | undefined): string {
  if (!token || token.type !== 'inline') return '';
  const parts = (token.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline' || child.type === 'softbreak')
    .map((child) => (child.type === 'softbreak' ? ' ' : child.content));
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function splitFrontMatter(
  fileName: string,
  source: string,
): { body: string; metadata: Record<string, string> } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { body: source, metadata: {} };
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch (error) {
    throw new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      `${fileName}: the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const metadata: Record<string, string> = {};
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (value === null || value === undefined) continue;
      metadata[key] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    }
  }
  return { body: source.slice(match[0].length), metadata };
}
