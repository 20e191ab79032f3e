import { basename, extname } from 'node:path';
import type { DocumentLimits, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { MEDIA_TYPES, PermanentDocumentError, TroveErrorCode, DEFAULT_DOCUMENT_LIMITS } from '@trove/domain';
import { openDocumentZip } from '../archive/document-zip';
import { htmlToBlocks } from '../html/html-blocks';
import { loadHtml } from '../html/load-markup';
import { elementsNamed } from '../html/xml-elements';
import { checkOdfPackage, odfContent, odfMetadata } from './odf-package';
import { odfToHtml } from './odf-html';

/**
 * OpenDocument text (.odt, LibreOffice Writer): the archive is read through safe-zip, content.xml
 * becomes HTML ({@link odfToHtml}: headings by outline level, lists, tables with their cells) and
 * then blocks with heading paths. The title is meta.xml's, else the file name.
 */
export class OdtParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.odt] as const;

  constructor(private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    const zip = await openDocumentZip(input, this.limits);
    try {
      await checkOdfPackage(zip, name, MEDIA_TYPES.odt, 'text document');
      const metadata = await odfMetadata(zip, name);
      const $ = await odfContent(zip, name);
      const body = elementsNamed($, 'text')[0];
      const html = body ? odfToHtml(body.children) : '';
      const blocks = htmlToBlocks(loadHtml(html)('body')[0]);
      if (blocks.length === 0) {
        throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no text content`);
      }
      return { title: metadata.title || basename(name, extname(name)), metadata, blocks };
    } finally {
      zip.close();
    }
  }
}
