import { basename, extname } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import type { ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { decodeMarkup } from './decode-html';
import { htmlToBlocks, inlineText, isElement, textContent } from './html-blocks';
import { loadHtml } from './load-markup';

export const HTML_MEDIA_TYPES = ['text/html', 'application/xhtml+xml'] as const;

/**
 * Where the page's own content lives, most specific first: MkDocs Material, HTML5 landmarks,
 * Read the Docs and Sphinx themes, the common `#content`. The first one holding text wins.
 */
const MAIN_CONTENT = [
  '.md-content',
  'main',
  '[role=main]',
  'article',
  '.rst-content',
  '.document',
  '#content',
];

/** Page furniture dropped when no main container is found and the whole body is read. */
const FURNITURE = 'header, footer, aside, [role=banner], [role=contentinfo], [role=complementary]';

/**
 * HTML and XHTML pages: decoded by BOM / declared charset / UTF-8, reduced to the main content
 * (navigation, scripts, page header and footer dropped) and turned into blocks by {@link htmlToBlocks}.
 */
export class HtmlParser implements Parser {
  readonly mediaTypes = HTML_MEDIA_TYPES;

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeMarkup(input.fileName, input.data);
    const $ = loadHtml(decoded.text, { xhtml: input.mediaType === 'application/xhtml+xml' });
    const root = mainContent($);
    const blocks = htmlToBlocks(root);
    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${input.fileName} has no text content (only markup, navigation, scripts or white space)`,
      );
    }
    const titleElement = $('title')
      .filter((_, el) => $(el).closest('svg').length === 0)
      .first()[0];
    const firstH1 = $(root).find('h1').first()[0];
    const title =
      (titleElement ? textContent(titleElement) : '') ||
      (firstH1 ? textContent(firstH1) : '') ||
      basename(input.fileName, extname(input.fileName));
    const document: ParsedDocument = { title, metadata: metadataOf($), blocks };
    if (decoded.warning) document.warnings = [decoded.warning];
    return document;
  }
}

function mainContent($: CheerioAPI): AnyNode {
  for (const selector of MAIN_CONTENT) {
    const matches = $(selector).toArray().filter(isElement);
    // Several <article>s are a list of posts, not the page's main content.
    if (selector === 'article' && matches.length > 1) continue;
    const match = matches.find((el) => inlineText(el).trim() !== '' && !insideHidden(el));
    if (match) return match;
  }
  const body = $('body').first();
  body
    .find(FURNITURE)
    .filter((_, el) => $(el).parents('article, main, section, [role=main]').length === 0)
    .remove();
  return body[0] ?? $.root()[0];
}

/** An element the walk would drop, or one inside it (hidden, or in a <nav>, <template>, <noscript>). */
function insideHidden(el: Element): boolean {
  for (let node: Element['parent'] = el; node && 'attribs' in node; node = node.parent) {
    const name = node.name.toLowerCase();
    if (['nav', 'template', 'noscript', 'head'].includes(name)) return true;
    if ('hidden' in node.attribs || node.attribs['aria-hidden'] === 'true') return true;
  }
  return false;
}

function metadataOf($: CheerioAPI): Record<string, string> {
  const metadata: Record<string, string> = {};
  const language = $('html').attr('lang') ?? $('html').attr('xml:lang');
  if (language?.trim()) metadata.language = language.trim();
  for (const name of ['description', 'author', 'keywords']) {
    const content = $(`meta[name="${name}" i]`).attr('content')?.replace(/\s+/g, ' ').trim();
    if (content) metadata[name] = content;
  }
  return metadata;
}
