import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { decodeUtf8 } from '../detect';

/** Where HTML and XML declare their encoding; the HTML spec looks no further than the first 1024 bytes. */
const SNIFF_BYTES = 2048;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([-\w.:]+)/i;
const XML_ENCODING = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([-\w.:]+)["']/i;

export interface DecodedMarkup {
  text: string;
  /** The encoding used, as TextDecoder names it. */
  encoding: string;
  /** Set when the declared encoding was unknown and UTF-8 was used instead. */
  warning?: string;
}

/**
 * Decodes an HTML or XHTML file: a byte-order mark wins, then `<meta charset>` (or the http-equiv
 * Content-Type) or the XML declaration in the first 2 KB, else UTF-8. An unknown label falls back
 * to UTF-8; UTF-8 that does not decode fails the document with UNDECODABLE_DOCUMENT.
 */
export function decodeMarkup(fileName: string, data: Buffer): DecodedMarkup {
  if (data.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${fileName} is empty (0 bytes)`);
  }
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    return { text: decodeUtf8(fileName, data), encoding: 'utf-8' };
  }
  if (data[0] === 0xff && data[1] === 0xfe) return decodeWith('utf-16le', fileName, data);
  if (data[0] === 0xfe && data[1] === 0xff) return decodeWith('utf-16be', fileName, data);

  const head = data.subarray(0, SNIFF_BYTES).toString('latin1');
  const label = (XML_ENCODING.exec(head) ?? META_CHARSET.exec(head))?.[1]?.toLowerCase();
  if (!label) return { text: decodeUtf8(fileName, data), encoding: 'utf-8' };

  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return {
      text: decodeUtf8(fileName, data),
      encoding: 'utf-8',
      warning: `unknown character encoding "${label}" declared; decoded as UTF-8`,
    };
  }
  // A document that could declare its encoding in ASCII is not UTF-16 (the HTML spec's rule).
  if (encoding === 'utf-8' || encoding.startsWith('utf-16')) {
    return { text: decodeUtf8(fileName, data), encoding: 'utf-8' };
  }
  return decodeWith(encoding, fileName, data);
}

function decodeWith(encoding: string, fileName: string, data: Buffer): DecodedMarkup {
  try {
    // Legacy encodings are not decoded fatally: browsers show U+FFFD for stray bytes, so do we.
    return {
      text: new TextDecoder(encoding, { fatal: encoding.startsWith('utf-16') }).decode(data),
      encoding,
    };
  } catch {
    throw new PermanentDocumentError(
      TroveErrorCode.UndecodableDocument,
      `${fileName} is not valid ${encoding}`,
    );
  }
}
