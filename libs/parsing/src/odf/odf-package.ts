import type { CheerioAPI } from 'cheerio';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import type { SafeZip } from '../archive/safe-zip';
import { readXml } from '../html/xml-elements';
import { partProperties } from '../office/core-properties';

/**
 * Checks an OpenDocument package before its parts are read: its `mimetype` names the expected
 * kind (`expected`, or its template), it is not encrypted (ODF encrypts each part and lists
 * `encryption-data` in the manifest), and it has its `content.xml`.
 */
export async function checkOdfPackage(
  zip: SafeZip,
  name: string,
  expected: string,
  kind: 'text document' | 'spreadsheet' | 'presentation',
): Promise<void> {
  if (zip.has('mimetype')) {
    const declared = (await zip.read('mimetype')).toString('latin1').trim();
    if (declared !== expected && declared !== `${expected}-template`) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${name} is not an OpenDocument ${kind}: its mimetype entry says ${declared.slice(0, 100) || 'nothing'}`,
      );
    }
  }
  if (zip.has('META-INF/manifest.xml')) {
    const manifest = await zip.read('META-INF/manifest.xml');
    if (manifest.includes('encryption-data')) {
      throw new PermanentDocumentError(
        TroveErrorCode.EncryptedDocument,
        `${name} is password-protected; save it without a password and upload it again`,
      );
    }
  }
  if (!zip.has('content.xml')) {
    throw new PermanentDocumentError(
      TroveErrorCode.CorruptDocument,
      `${name} is not a readable OpenDocument ${kind}: content.xml is missing`,
    );
  }
}

/** Title, author and language from meta.xml, when filled in. */
export function odfMetadata(zip: SafeZip, name: string): Promise<Record<string, string>> {
  return partProperties(zip, name, 'meta.xml', {
    title: 'title',
    'initial-creator': 'creator',
    language: 'language',
  });
}

/** The package's content.xml, parsed. */
export function odfContent(zip: SafeZip, name: string): Promise<CheerioAPI> {
  return readXml(zip, name, 'content.xml');
}
