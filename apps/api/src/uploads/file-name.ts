import { TroveError, TroveErrorCode } from '@trove/domain';

/**
 * Characters a file name may not hold: controls, format characters (bidirectional overrides,
 * zero-width spaces and joiners, the BOM) and line separators, which make two different names
 * look alike or reorder what is shown; and slashes.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\]/u;

/** An uploaded file's name in NFC (so "é" typed two ways is one name), or BAD_REQUEST. */
export function normalizeFileName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (!name || name.length > 255) {
    throw new TroveError(TroveErrorCode.BadRequest, 'the file name must be 1-255 characters');
  }
  const forbidden = FORBIDDEN.exec(name);
  if (forbidden) {
    const codePoint = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `the file name contains U+${codePoint}: slashes, control, invisible and bidirectional formatting characters are not allowed`,
    );
  }
  return name;
}
