import { basename, extname, posix } from 'node:path';
import { isText, type Element } from 'domhandler';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  MEDIA_TYPES,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import { openDocumentZip } from '../archive/document-zip';
import type { SafeZip } from '../archive/safe-zip';
import { textContent } from '../html/html-blocks';
import {
  attribute,
  children,
  descendants,
  elementsNamed,
  escapeHtml,
  localName,
  readXml,
} from '../html/xml-elements';
import { refuseOleFile } from '../office/ole';
import { coreProperties } from '../office/core-properties';
import { capWarnings } from '../warnings';
import { slideBlocks } from './slides';

/** Placeholders that repeat on every slide and say nothing about it. */
const FURNITURE = new Set(['sldnum', 'dt', 'ftr', 'hdr', 'sldimg']);
const TITLES = new Set(['title', 'ctrtitle']);
const PRESENTATION = 'ppt/presentation.xml';

interface Relationship {
  id: string;
  type: string;
  /** Archive path of the target part. */
  path: string;
}

/**
 * PowerPoint presentations (.pptx), read through safe-zip: slides in show order (the
 * presentation's slide list), each a section with its title, its text boxes, tables (cells kept)
 * and speaker notes, cited by slide number (see {@link slideBlocks}). Hidden slides are left out
 * and listed in `warnings`; pictures, charts and media are not read.
 */
export class PptxParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.pptx] as const;

  constructor(private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    refuseOleFile(name, input.data, 'PowerPoint 97–2003 (.ppt)', '.pptx');
    const zip = await openDocumentZip(input, this.limits);
    try {
      if (!zip.has(PRESENTATION)) {
        throw new PermanentDocumentError(
          TroveErrorCode.ParseFailed,
          `${name} is not a PowerPoint presentation: it is a zip archive without ${PRESENTATION}`,
        );
      }
      const warnings: string[] = [];
      const slidePaths = await this.slideList(zip, name);
      checkDocumentLimit(this.limits, 'maxPages', name, slidePaths.length);
      const blocks: ParsedBlock[] = [];
      let number = 0;
      for (const path of slidePaths) {
        number++;
        if (!zip.has(path)) {
          warnings.push(`slide ${number} (${path}) is missing from the archive`);
          continue;
        }
        const $ = await readXml(zip, name, path);
        const root = elementsNamed($, 'sld')[0];
        if (root && attribute(root, 'show') === '0') {
          warnings.push(`skipped the hidden slide ${number}`);
          continue;
        }
        const tree = root ? descendants(root, 'spTree')[0] : undefined;
        const content = tree ? shapes(tree) : { title: '', html: '' };
        const notesPath = (await relationships(zip, name, path)).find((r) =>
          r.type.endsWith('/notesSlide'),
        )?.path;
        let notesHtml = '';
        if (notesPath && zip.has(notesPath)) {
          const notes = await readXml(zip, name, notesPath);
          const notesTree = elementsNamed(notes, 'spTree')[0];
          notesHtml = notesTree ? shapes(notesTree, (type) => type === 'body').html : '';
        }
        blocks.push(...slideBlocks({ number, title: content.title, html: content.html, notesHtml }));
      }
      if (blocks.length === 0) {
        throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no text on its slides`);
      }
      const metadata = await coreProperties(zip, name);
      const document: ParsedDocument = {
        title: metadata.title || basename(name, extname(name)),
        metadata,
        blocks,
        pageCount: slidePaths.length,
      };
      if (warnings.length > 0) document.warnings = capWarnings(warnings);
      return document;
    } finally {
      zip.close();
    }
  }

  /** The slides' part paths in show order: `p:sldIdLst` resolved through the presentation's relationships. */
  private async slideList(zip: SafeZip, name: string): Promise<string[]> {
    const $ = await readXml(zip, name, PRESENTATION);
    const rels = new Map((await relationships(zip, name, PRESENTATION)).map((r) => [r.id, r] as const));
    const list = elementsNamed($, 'sldIdLst')[0];
    const paths: string[] = [];
    for (const entry of list ? children(list, 'sldId') : []) {
      // `r:id`, the relationship (the plain `id` is the slide's number in the file).
      const relId = Object.entries(entry.attribs).find(([key]) => /:id$/i.test(key))?.[1];
      const rel = relId ? rels.get(relId) : undefined;
      if (rel) paths.push(rel.path);
    }
    return paths;
  }
}

/**
 * The text of a shape tree as HTML, and its title placeholder's text apart. `keep` decides which
 * placeholders are read (by type; every non-placeholder shape is), furniture never.
 */
function shapes(
  tree: Element,
  keep: (placeholder: string) => boolean = () => true,
): { title: string; html: string } {
  let title = '';
  const html: string[] = [];
  const stack: Element[] = [...children(tree)].reverse();
  while (stack.length > 0) {
    const shape = stack.pop()!;
    const kind = localName(shape);
    if (kind === 'grpsp') {
      stack.push(...children(shape).reverse());
    } else if (kind === 'sp') {
      const placeholder = descendants(shape, 'ph')[0];
      const type = placeholder ? (attribute(placeholder, 'type') ?? 'body').toLowerCase() : undefined;
      const body = children(shape, 'txBody')[0];
      if (!body || (type !== undefined && (FURNITURE.has(type) || !keep(type)))) continue;
      if (type !== undefined && TITLES.has(type)) {
        title ||= textContent(body);
        continue;
      }
      html.push(textBody(body));
    } else if (kind === 'graphicframe') {
      for (const table of descendants(shape, 'tbl')) html.push(tableHtml(table));
    }
  }
  return { title, html: html.join('') };
}

/** DrawingML paragraphs (`a:p` of runs, fields and breaks) as HTML paragraphs. */
function textBody(body: Element): string {
  return children(body, 'p')
    .map((p) => {
      const parts: string[] = [];
      for (const child of children(p)) {
        const kind = localName(child);
        if (kind === 'r' || kind === 'fld') parts.push(escapeHtml(children(child, 't').map(text).join('')));
        else if (kind === 'br') parts.push('<br>');
      }
      return `<p>${parts.join('')}</p>`;
    })
    .join('');
}

/** A DrawingML table with its cells; merged-over cells stay empty. */
function tableHtml(table: Element): string {
  const rows = children(table, 'tr').map((tr) => {
    const cells = children(tr, 'tc').map((tc) => {
      if (attribute(tc, 'hMerge') === '1' || attribute(tc, 'vMerge') === '1') return '<td></td>';
      const body = children(tc, 'txBody')[0];
      return `<td>${body ? textBody(body) : ''}</td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table>${rows.join('')}</table>`;
}

function text(el: Element): string {
  return el.children.map((node) => (isText(node) ? node.data : '')).join('');
}

/** A part's relationships (`_rels/<part>.rels`), targets resolved to archive paths; external ones left out. */
async function relationships(zip: SafeZip, name: string, part: string): Promise<Relationship[]> {
  const relsPath = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  if (!zip.has(relsPath)) return [];
  const $ = await readXml(zip, name, relsPath);
  return elementsNamed($, 'Relationship').flatMap((el) => {
    const { Id: id = '', Type: type = '', Target: target, TargetMode: mode } = el.attribs;
    if (!target || mode?.toLowerCase() === 'external') return [];
    const path = target.startsWith('/')
      ? target.slice(1)
      : posix.normalize(posix.join(posix.dirname(part), target));
    return [{ id, type, path }];
  });
}
