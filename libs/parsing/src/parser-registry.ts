import type { ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
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

/** Routes a file to the parser registered for its media type. */
export class ParserRegistry {
  private readonly byMediaType = new Map<string, Parser>();

  constructor(parsers: Parser[]) {
    for (const parser of parsers) {
      for (const mediaType of parser.mediaTypes) {
        if (this.byMediaType.has(mediaType)) throw new Error(`two parsers registered for ${mediaType}`);
        this.byMediaType.set(mediaType, parser);
      }
    }
  }

  static default(): ParserRegistry {
    return new ParserRegistry([
      new MarkdownParser(),
      new PlainTextParser(),
      new ParsedJsonParser(),
      new PdfParser(),
      new HtmlParser(),
      new EpubParser(),
      new DocxParser(),
      new OdtParser(),
      new RtfParser(),
      new SpreadsheetParser(),
      new CsvParser(),
      new PptxParser(),
      new OdpParser(),
      new ImageParser(),
    ]);
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
    return parser.parse(input);
  }
}
