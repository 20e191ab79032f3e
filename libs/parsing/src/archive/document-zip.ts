import type { ParseInput } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { openZip, type SafeZip, type ZipLimits } from './safe-zip';

/**
 * Opens a zip-based document (EPUB, DOCX, PPTX, OpenDocument) under safe-zip's limits; an empty
 * file fails as EMPTY_DOCUMENT first. The caller closes the archive.
 */
export function openDocumentZip(input: ParseInput, limits: ZipLimits): Promise<SafeZip> {
  if (input.data.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${input.fileName} is empty (0 bytes)`);
  }
  return openZip(input.data, { limits, archiveName: input.fileName });
}
