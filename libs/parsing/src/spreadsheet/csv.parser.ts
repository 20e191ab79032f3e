import { basename, extname } from 'node:path';
import { detect as detectCharset } from 'chardet';
import Papa from 'papaparse';
import type { DocumentLimits, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  DEFAULT_DOCUMENT_LIMITS,
  documentOverLimit,
  MEDIA_TYPES,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import { isUtf8Prefix } from '../detect';
import { capWarnings } from '../warnings';
import { sheetBlocks, type SheetRow } from './sheet-table';

/** Bytes looked at to tell the encoding (UTF-16 by its NUL bytes, a legacy code page by chardet). */
const SNIFF_BYTES = 64 * 1024;
/** Delimiters papaparse chooses between for CSV: the one that splits the rows most consistently. */
const DELIMITERS = [',', ';', '\t', '|'];
/** A cell holding a number, an amount, a percentage or a date: never taken for a column header. */
const VALUE = /^[-+(]?[$€£¥₽]?\s*\d[\d\s.,'’]*%?\)?$|^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}/;

export interface DecodedText {
  text: string;
  /** As TextDecoder names it (`utf-8`, `utf-16le`, `windows-1251`). */
  encoding: string;
}

/**
 * CSV and TSV files. The encoding is detected: a byte-order mark, UTF-16 without one by the
 * pattern of its NUL bytes, UTF-8 when the bytes are valid UTF-8, else the legacy code page
 * chardet finds most likely (windows-1251, Shift_JIS, GB18030 …). A CSV file's delimiter is
 * detected by papaparse among `,` `;` tab and `|`; a TSV file's is a tab. The file is one table
 * (see {@link sheetBlocks}: header row detected, rows numbered by record, as RFC 7111 counts them).
 * A file of more records than the row limit fails (papaparse stops one record past it).
 */
export class CsvParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.csv, MEDIA_TYPES.tsv] as const;

  constructor(private readonly limits: Pick<DocumentLimits, 'maxRows'> = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    const { text, encoding } = decodeText(name, input.data);
    const result = Papa.parse<string[]>(text, {
      delimiter: input.mediaType === MEDIA_TYPES.tsv ? '\t' : '',
      delimitersToGuess: DELIMITERS,
      skipEmptyLines: false,
      preview: this.limits.maxRows + 1,
    });
    // One record past the limit; a file's final line break alone makes an empty last record.
    const extra = result.data[this.limits.maxRows];
    if (extra && (result.meta.truncated || extra.some((value) => value.trim()))) {
      throw documentOverLimit('maxRows', name, this.limits.maxRows, this.limits.maxRows, { atLeast: true });
    }
    const records = result.data.slice(0, this.limits.maxRows);
    const rows: SheetRow[] = records.map((record, i) => ({
      number: i + 1,
      cells: record.map((value) => ({ text: value, value: VALUE.test(value.trim()) })),
    }));
    const blocks = sheetBlocks(rows, { headingPath: [] });
    if (blocks.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no values`);
    }
    const warnings = result.errors
      .filter((error) => error.code !== 'UndetectableDelimiter')
      .map((error) => `record ${(error.row ?? 0) + 1}: ${error.message}`);
    const document: ParsedDocument = {
      title: basename(name, extname(name)),
      metadata: { encoding, delimiter: result.meta.delimiter === '\t' ? 'tab' : result.meta.delimiter },
      blocks,
    };
    if (warnings.length > 0) document.warnings = capWarnings(warnings);
    return document;
  }
}

/** Decodes a text file whose encoding is not declared; see {@link CsvParser}. */
export function decodeText(fileName: string, data: Buffer): DecodedText {
  if (data.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${fileName} is empty (0 bytes)`);
  }
  const encoding = detectEncoding(fileName, data);
  try {
    // Legacy code pages decode every byte; UTF-8 and UTF-16 must be well-formed.
    const fatal = encoding.startsWith('utf-');
    return { text: new TextDecoder(encoding, { fatal }).decode(data), encoding };
  } catch {
    throw new PermanentDocumentError(
      TroveErrorCode.UndecodableDocument,
      `${fileName} is not valid ${encoding} text`,
    );
  }
}

function detectEncoding(fileName: string, data: Buffer): string {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return 'utf-8';
  if (data[0] === 0xff && data[1] === 0xfe) return 'utf-16le';
  if (data[0] === 0xfe && data[1] === 0xff) return 'utf-16be';
  const sample = data.subarray(0, SNIFF_BYTES);
  const utf16 = utf16ByNulBytes(sample);
  if (utf16) return utf16;
  if (sample.includes(0)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UndecodableDocument,
      `${fileName} is not text: it contains NUL bytes and is not UTF-16`,
    );
  }
  if (isUtf8Prefix(sample, data.length > sample.length)) return 'utf-8';
  const guess = detectCharset(sample);
  try {
    if (guess) return new TextDecoder(guess).encoding;
  } catch {
    // An encoding chardet names but TextDecoder does not know: reported below.
  }
  throw new PermanentDocumentError(
    TroveErrorCode.UndecodableDocument,
    `${fileName}: its character encoding could not be recognised${guess ? ` (it looks like ${guess})` : ''}; save it as UTF-8`,
  );
}

/**
 * UTF-16 without a byte-order mark: its ASCII characters (digits, delimiters, line ends) have a
 * NUL in every other byte, at odd offsets in little-endian; other scripts rarely have any.
 */
function utf16ByNulBytes(sample: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) even++;
    if (sample[i + 1] === 0) odd++;
  }
  if (odd > pairs * 0.1 && even <= pairs * 0.01) return 'utf-16le';
  if (even > pairs * 0.1 && odd <= pairs * 0.01) return 'utf-16be';
  return undefined;
}
