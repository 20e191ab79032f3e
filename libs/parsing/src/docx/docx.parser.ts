import { basename, extname } from 'node:path';
import mammoth from 'mammoth';
import type { DocumentLimits, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode, DEFAULT_DOCUMENT_LIMITS } from '@trove/domain';
import { openDocumentZip } from '../archive/document-zip';
import { htmlToBlocks, textContent } from '../html/html-blocks';
import { loadHtml } from '../html/load-markup';
import { coreProperties } from '../office/core-properties';
import { refuseOleFile } from '../office/ole';
import { capWarnings, oneLine } from '../warnings';

export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const TITLE_CLASS = 'docx-title';

/**
 * Mammoth maps Word's Heading 1–6 styles to h1–h6 by default. The Title style becomes the
 * document title rather than a heading: it would otherwise sit beside Heading 1 sections instead
 * of above them.
 */
const STYLE_MAP = [
  `p[style-name='Title'] => h1.${TITLE_CLASS}:fresh`,
  `p.Title => h1.${TITLE_CLASS}:fresh`,
  "p[style-name='Subtitle'] => p:fresh",
  'p.Subtitle => p:fresh',
];

/**
 * Word documents (.docx): the archive is checked and fully inflated under safe-zip's limits first
 * (mammoth's jszip would inflate a bomb without limit), then mammoth converts it to HTML, which
 * {@link htmlToBlocks} turns into blocks with heading paths. Mammoth's warnings become `warnings`.
 */
export class DocxParser implements Parser {
  readonly mediaTypes = [DOCX_MEDIA_TYPE] as const;

  constructor(private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    refuseOleFile(name, input.data, 'Word 97–2003 (.doc)', '.docx');
    const zip = await openDocumentZip(input, this.limits);
    if (!zip.has('[Content_Types].xml') || !zip.entries.some((entry) => entry.path.startsWith('word/'))) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${name} is not a Word document: it is a zip archive without word/ parts or [Content_Types].xml`,
      );
    }
    await zip.verifyAll();
    const properties = await coreProperties(zip, name);

    let result: Awaited<ReturnType<typeof mammoth.convertToHtml>>;
    try {
      result = await mammoth.convertToHtml(
        { buffer: input.data },
        {
          styleMap: STYLE_MAP,
          ignoreEmptyParagraphs: true,
          // Images carry no text; keep their alt text but never decode them.
          convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        },
      );
    } catch (error) {
      // Mammoth's XML reader recurses: a document nested thousands of levels deep overflows the stack.
      if (error instanceof RangeError) {
        throw new PermanentDocumentError(
          TroveErrorCode.ParseLimitExceeded,
          `${name} is nested too deeply to read (${error.message})`,
          error,
        );
      }
      throw new PermanentDocumentError(
        TroveErrorCode.CorruptDocument,
        `${name} could not be read as a Word document: ${oneLine((error as Error).message)}`,
        error,
      );
    }

    const $ = loadHtml(result.value);
    const titleHeading = $(`h1.${TITLE_CLASS}`).first();
    const styledTitle = titleHeading[0] ? textContent(titleHeading[0]) : '';
    titleHeading.remove();
    const blocks = htmlToBlocks($('body')[0] ?? $.root()[0]);
    if (blocks.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no text content`);
    }
    const document: ParsedDocument = {
      title: styledTitle || properties.title || basename(name, extname(name)),
      metadata: properties,
      blocks,
    };
    const warnings = mammothWarnings(result.messages);
    if (warnings.length > 0) document.warnings = warnings;
    return document;
  }
}

function mammothWarnings(messages: { message: string }[]): string[] {
  return capWarnings(messages.map((m) => m.message.replace(/\s+/g, ' ').trim()).filter(Boolean));
}
