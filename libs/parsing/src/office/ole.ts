import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';

/** Compound File Binary (OLE2): legacy .doc/.xls/.ppt files, and Office 2007+ files saved with a password. */
export const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** A stream name in the compound file's directory: UTF-16LE, NUL-terminated. */
function streamName(name: string): Buffer {
  return Buffer.from(`${name}\u0000`, 'utf16le');
}

const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

export function isOleFile(data: Buffer): boolean {
  return data.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE);
}

/** Office writes a password-protected .docx/.xlsx/.pptx as an OLE file holding an `EncryptedPackage` stream. */
export function isEncryptedOffice(data: Buffer): boolean {
  return data.includes(ENCRYPTED_PACKAGE);
}

/** Whether the compound file's directory (when within `data`) names this stream. */
export function hasOleStream(data: Buffer, name: string): boolean {
  return data.includes(streamName(name));
}

/**
 * Refuses an OLE file where an Office 2007+ (zip) file is expected: a password-protected one as
 * ENCRYPTED_DOCUMENT, a legacy binary one (`legacy`, e.g. "Word 97–2003 (.doc)") with what to do.
 */
export function refuseOleFile(name: string, data: Buffer, legacy: string, modern: string): void {
  if (!isOleFile(data)) return;
  if (isEncryptedOffice(data)) {
    throw new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${name} is password-protected; save it without a password and upload it again`,
    );
  }
  throw new PermanentDocumentError(
    TroveErrorCode.ParseFailed,
    `${name} is a legacy ${legacy} file, not ${modern}; save it as ${modern} and upload it again`,
  );
}
