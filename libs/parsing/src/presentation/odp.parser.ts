import { basename, extname } from 'node:path';
import type { Element } from 'domhandler';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  MEDIA_TYPES,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import { openDocumentZip } from '../archive/document-zip';
import { textContent } from '../html/html-blocks';
import { attribute, children, elementsNamed, localName } from '../html/xml-elements';
import { odfToHtml } from '../odf/odf-html';
import { checkOdfPackage, odfContent, odfMetadata } from '../odf/odf-package';
import { slideBlocks } from './slides';

/** Presentation frames that repeat on every slide and say nothing about it. */
const FURNITURE = new Set(['page-number', 'date-time', 'footer', 'header', 'page']);
const TITLES = new Set(['title']);

/**
 * OpenDocument presentations (.odp, LibreOffice Impress), read through safe-zip: each
 * `draw:page` is a slide with its title frame, its other frames (text boxes, outlines, tables) and
 * its speaker notes (`presentation:notes`), cited by slide number (see {@link slideBlocks}).
 */
export class OdpParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.odp] as const;

  constructor(private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    const zip = await openDocumentZip(input, this.limits);
    try {
      await checkOdfPackage(zip, name, MEDIA_TYPES.odp, 'presentation');
      const metadata = await odfMetadata(zip, name);
      const $ = await odfContent(zip, name);
      const presentation = elementsNamed($, 'presentation').find((el) => children(el, 'page').length > 0);
      const pages = presentation ? children(presentation, 'page') : [];
      checkDocumentLimit(this.limits, 'maxPages', name, pages.length);
      const blocks: ParsedBlock[] = [];
      pages.forEach((page, i) => {
        const notes = children(page, 'notes')[0];
        const content = frames(children(page).filter((el) => el !== notes));
        const notesHtml = notes ? frames(children(notes), (kind) => kind === 'notes').html : '';
        blocks.push(...slideBlocks({ number: i + 1, title: content.title, html: content.html, notesHtml }));
      });
      if (blocks.length === 0) {
        throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no text on its slides`);
      }
      return {
        title: metadata.title || basename(name, extname(name)),
        metadata,
        blocks,
        pageCount: pages.length,
      };
    } finally {
      zip.close();
    }
  }
}

/**
 * A slide's frames as HTML, and its title frame's text apart. `keep` decides which presentation
 * classes are read (frames without one always are), furniture never.
 */
function frames(
  elements: Element[],
  keep: (kind: string) => boolean = () => true,
): { title: string; html: string } {
  let title = '';
  const html: string[] = [];
  const stack = [...elements].reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (localName(el) === 'g') {
      stack.push(...children(el).reverse());
      continue;
    }
    const kind = attribute(el, 'class');
    if (kind !== undefined && (FURNITURE.has(kind) || !keep(kind))) continue;
    if (kind !== undefined && TITLES.has(kind)) {
      title ||= textContent(el);
      continue;
    }
    html.push(odfToHtml([el]));
  }
  return { title, html: html.join('') };
}
