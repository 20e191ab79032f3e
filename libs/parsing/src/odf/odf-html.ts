import { isText, type AnyNode, type Element } from 'domhandler';
import { isElement } from '../html/html-blocks';
import { attribute, escapeHtml, localName } from '../html/xml-elements';

/** Repeated rows and cells (`table:number-columns-repeated`) are written at most this many times. */
const MAX_REPEAT = 64;

/** OpenDocument elements that hold no document text: change-tracking copies, comments, forms, indexes. */
const SKIPPED = new Set([
  'annotation',
  'annotation-end',
  'tracked-changes',
  'forms',
  'table-of-content',
  'illustration-index',
  'table-index',
  'object-index',
  'user-index',
  'alphabetical-index',
  'bibliography',
  'note-citation',
  'sequence-decls',
  'variable-decls',
  'user-field-decls',
  'table-columns',
  'table-column',
  'table-header-columns',
  'covered-table-cell',
  'soft-page-break',
  'image',
  'title',
  'desc',
  'bookmark',
  'bookmark-start',
  'bookmark-end',
]);

/**
 * OpenDocument text content (`text:h`, `text:p`, lists, `table:table`, frames and text boxes) as
 * HTML, for {@link htmlToBlocks}: headings keep their outline level, tables their cells, footnotes
 * stay in their paragraph in brackets. Comments, tracked deletions and indexes are left out.
 */
export function odfToHtml(nodes: readonly AnyNode[]): string {
  return nodes.map(nodeHtml).join('');
}

function nodeHtml(node: AnyNode): string {
  if (isText(node)) return escapeHtml(node.data);
  if (!isElement(node)) return '';
  const name = localName(node);
  if (SKIPPED.has(name)) return '';
  const inner = () => odfToHtml(node.children);
  switch (name) {
    case 'h': {
      const level = Math.min(
        Math.max(Number.parseInt(attribute(node, 'outline-level') ?? '1', 10) || 1, 1),
        6,
      );
      return `<h${level}>${inner()}</h${level}>`;
    }
    case 'p':
      return `<p>${inner()}</p>`;
    case 'list':
      return `<ul>${inner()}</ul>`;
    case 'list-item':
    case 'list-header':
      return `<li>${inner()}</li>`;
    case 'table':
      return `<table>${inner()}</table>`;
    case 'table-row':
      return repeated(node, 'rows', `<tr>${inner()}</tr>`);
    case 'table-cell': {
      const span = Math.min(Number.parseInt(attribute(node, 'number-columns-spanned') ?? '1', 10) || 1, 100);
      const cell = `<td${span > 1 ? ` colspan="${span}"` : ''}>${inner()}</td>`;
      return repeated(node, 'columns', cell);
    }
    case 'note':
      return ` [${inner().trim()}]`;
    case 'note-body':
      return inner()
        .replace(/<\/?p>/g, ' ')
        .trim();
    case 's':
      return ' '.repeat(Math.min(Number.parseInt(attribute(node, 'c') ?? '1', 10) || 1, 100));
    case 'tab':
      return ' ';
    case 'line-break':
      return '<br>';
    case 'frame':
    case 'text-box':
    case 'section':
    case 'g':
      return `<div>${inner()}</div>`;
    default:
      return inner();
  }
}

/** A row or cell written as often as it repeats; an empty one once (files pad sheets with thousands). */
function repeated(el: Element, what: 'rows' | 'columns', html: string): string {
  const count = Number.parseInt(attribute(el, `number-${what}-repeated`) ?? '1', 10) || 1;
  const empty = !/>[^<\s]/.test(html);
  return html.repeat(empty ? 1 : Math.min(count, MAX_REPEAT));
}
