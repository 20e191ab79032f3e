import { basename, extname } from 'node:path';
import type { ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { decodeUtf8, MEDIA_TYPES } from './detect';

/** Plain text: paragraphs are separated by blank lines; there are no headings. */
export class PlainTextParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.plainText] as const;

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const text = decodeUtf8(input.fileName, input.data);
    const paragraphs = text
      .split(/\r?\n[ \t]*\r?\n/)
      .map((p) => p.trim())
      .filter(Boolean);
    if (paragraphs.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${input.fileName} contains only white space`,
      );
    }
    return {
      title: basename(input.fileName, extname(input.fileName)),
      metadata: {},
      blocks: paragraphs.map((p) => ({ kind: 'paragraph', text: p, headingPath: [] })),
    };
  }
}
