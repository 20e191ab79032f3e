import { type DocumentLimits, LIMIT_SETTINGS } from '@trove/domain';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './archive/safe-zip';

/**
 * The archive limits of a zip-based document (Office, OpenDocument, EPUB): what it may expand to
 * is the document limit `maxExpandedBytes`; entry count and compression ratio are safe-zip's.
 */
export function documentZipLimits(limits: Pick<DocumentLimits, 'maxExpandedBytes'>): ZipLimits {
  return {
    ...DEFAULT_ZIP_LIMITS,
    maxTotalBytes: limits.maxExpandedBytes,
    maxEntryBytes: Math.min(DEFAULT_ZIP_LIMITS.maxEntryBytes, limits.maxExpandedBytes),
    setting: LIMIT_SETTINGS.maxExpandedBytes.env,
  };
}
