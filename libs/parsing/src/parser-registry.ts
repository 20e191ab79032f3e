import type { DocumentLimits, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  parsedTextLength,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import { DocxParser } from './docx/docx.parser';
import { EpubParser } from './epub/epub.parser';
import { HtmlParser } from './html/html.parser';
import { ImageParser } from './image/image.parser';
import { MarkdownParser } from './markdown.parser';
import { OdtParser } from './odf/odt.parser';
import { ParsedJsonParser } from './parsed-json.parser';
import { PdfParser } from './pdf/pdf.parser';
import { PlainTextParser } from './plain-text.parser';
import { OdpParser } from './presentation/odp.parser';
import { PptxParser } from './presentation/pptx.parser';
import { RtfParser } from './rtf/rtf.parser';
import { CsvParser } from './spreadsheet/csv.parser';
import { SpreadsheetParser } from './spreadsheet/spreadsheet.parser';

/**
 * Routes a file to the parser registered for its media type, within the document limits: a file
 * over the size limit is refused before any parser reads it, a document whose text is over the
 * text limit after parsing (the parsers refuse pages, rows, pixels and expanded bytes early).
 */
export class ParserRegistry {
  private readonly byMediaType = new Map<string, Parser>();

  constructor(
    parsers: Parser[],
    private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {
    for (const parser of parsers) {
      for (const mediaType of parser.mediaTypes) {
        if (this.byMediaType.has(mediaType)) throw new Error(`two parsers registered for ${mediaType}`);
        this.byMediaType.set(mediaType, parser);
      }
    }
  }

  static default(limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): ParserRegistry {
    return new ParserRegistry(
      [
        new MarkdownParser(),
        new PlainTextParser(),
        new ParsedJsonParser(),
        new PdfParser({ limits }),
        new HtmlParser(),
        new EpubParser(limits),
        new DocxParser(limits),
        new OdtParser(limits),
        new RtfParser(),
        new SpreadsheetParser(limits),
        new CsvParser(limits),
        new PptxParser(limits),
        new OdpParser(limits),
        new ImageParser(undefined, limits),
      ],
      limits,
    );
  }

  get mediaTypes(): string[] {
    return [...this.byMediaType.keys()];
  }

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const parser = this.byMediaType.get(input.mediaType);
    if (!parser) {
      throw new PermanentDocumentError(
        TroveErrorCode.UnsupportedMediaType,
        `no parser for ${input.mediaType} (${input.fileName})`,
      );
    }
    checkDocumentLimit(this.limits, 'maxBytes', input.fileName, input.data.length);
    const document = await parser.parse(input);
    checkDocumentLimit(this.limits, 'maxTextChars', input.fileName, parsedTextLength(document));
    return document;
  }
}
