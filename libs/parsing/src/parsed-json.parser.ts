import type { ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PARSED_JSON_MEDIA_TYPE, PermanentDocumentError, TroveErrorCode } from '@trove/domain';

export { PARSED_JSON_MEDIA_TYPE };

export class ParsedJsonParser implements Parser {
  readonly mediaTypes = [PARSED_JSON_MEDIA_TYPE] as const;

  async parse(input: ParseInput): Promise<ParsedDocument> {
    let doc: ParsedDocument;
    try {
      doc = JSON.parse(input.data.toString('utf8')) as ParsedDocument;
    } catch (error) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${input.fileName}: invalid parsed JSON (${(error as Error).message})`,
      );
    }
    if (typeof doc?.title !== 'string' || !Array.isArray(doc.blocks)) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${input.fileName}: parsed JSON lacks title or blocks`,
      );
    }
    if (!doc.blocks.some((b) => b.text?.trim())) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${input.fileName} has no text content`);
    }
    return doc;
  }
}
