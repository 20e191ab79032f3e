import type { DocumentLimits, ParseInput } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { documentZipLimits } from '../document-limits';
import { openZip, type SafeZip } from './safe-zip';

/**
 * Opens a zip-based document (EPUB, DOCX, PPTX, OpenDocument) under safe-zip's limits (the
 * document's expanded bytes: {@link documentZipLimits}); an empty file fails as EMPTY_DOCUMENT
 * first. The caller closes the archive.
 */
export function openDocumentZip(
  input: ParseInput,
  limits: Pick<DocumentLimits, 'maxExpandedBytes'>,
): Promise<SafeZip> {
  if (input.data.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${input.fileName} is empty (0 bytes)`);
  }
  return openZip(input.data, { limits: documentZipLimits(limits), archiveName: input.fileName });
}
