import { basename, extname } from 'node:path';
import type { ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { MEDIA_TYPES, PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { htmlToBlocks } from '../html/html-blocks';
import { loadHtml } from '../html/load-markup';
import { rtfToHtml } from './rtf-to-html';

const RTF_SIGNATURE = '{\\rtf';

/**
 * Rich Text Format (.rtf): read by {@link rtfToHtml} (paragraphs, outline-level headings,
 * tables with their cells, code pages and Unicode), then blocks with heading paths. The title is
 * the file's `\info\title`, else its name.
 */
export class RtfParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.rtf] as const;

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    if (input.data.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} is empty (0 bytes)`);
    }
    if (input.data.subarray(0, RTF_SIGNATURE.length).toString('latin1') !== RTF_SIGNATURE) {
      throw new PermanentDocumentError(
        TroveErrorCode.CorruptDocument,
        `${name} is not an RTF document: it does not start with {\\rtf`,
      );
    }
    const { html, title } = rtfToHtml(input.data);
    const blocks = htmlToBlocks(loadHtml(html)('body')[0]);
    if (blocks.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no text content`);
    }
    const metadata: Record<string, string> = title ? { title } : {};
    return { title: title || basename(name, extname(name)), metadata, blocks };
  }
}
