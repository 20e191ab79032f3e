import { basename, extname } from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  documentOverLimit,
  MEDIA_TYPES,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import { openZip, type SafeZip } from '../archive/safe-zip';
import { documentZipLimits } from '../document-limits';
import { checkOdfPackage } from '../odf/odf-package';
import { isEncryptedOffice, isOleFile } from '../office/ole';
import { capWarnings, oneLine } from '../warnings';
import { sheetBlocks, type SheetCell, type SheetRow } from './sheet-table';

/**
 * The document limits a workbook is held to: its rows (all sheets together), what its zip
 * expands to, and its text (each shared string is text of the workbook).
 */
export type SpreadsheetLimits = Pick<DocumentLimits, 'maxRows' | 'maxExpandedBytes' | 'maxTextChars'>;

/** Bytes read from the start of a sheet part for its `<dimension>`, of the shared strings for `<sst>`. */
const HEAD_BYTES = 16 * 1024;

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Workbooks: XLSX (and XLSM), legacy XLS (BIFF, in an OLE file) and ODS, read by SheetJS. Each
 * visible sheet is a section (its heading path and `sheet` are the sheet's name) holding one
 * table (see {@link sheetBlocks}: header row detected, rows numbered as in the sheet). Cells show
 * what the spreadsheet shows (formatted numbers, formula results), dates as yyyy-mm-dd.
 *
 * A zip-based workbook is checked and fully inflated under safe-zip's limits before SheetJS, whose
 * own zip reader has none, sees it; an OpenDocument one must also be unencrypted. An XLSX file is
 * refused before SheetJS reads it when its sheets declare more rows (`<dimension>`) or its shared
 * strings more entries (`<sst uniqueCount>`) than the limits allow; SheetJS reads at most one row
 * beyond the row limit per sheet, and a workbook over it fails. Macros, images and styles are
 * never read.
 */
export class SpreadsheetParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.xlsx, MEDIA_TYPES.xls, MEDIA_TYPES.ods] as const;

  constructor(private readonly limits: SpreadsheetLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    const data = input.data;
    if (data.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} is empty (0 bytes)`);
    }
    await this.checkContainer(name, data);

    let workbook: XLSX.WorkBook;
    try {
      workbook = XLSX.read(data, {
        type: 'buffer',
        dense: true,
        cellFormula: false,
        cellHTML: false,
        cellStyles: false,
        // The number format tells a date from a number; dates are written out as ISO below.
        cellNF: true,
        cellDates: false,
        bookVBA: false,
        bookFiles: false,
        bookDeps: false,
        sheetStubs: false,
        // One more than the limit: a sheet that has it is over the limit (and read no further).
        sheetRows: this.limits.maxRows + 1,
      });
    } catch (error) {
      throw readError(name, error);
    }

    const warnings: string[] = [];
    const blocks: ParsedBlock[] = [];
    let rowCount = 0;
    workbook.SheetNames.forEach((sheetName, index) => {
      const sheet = workbook.Sheets[sheetName];
      if (!sheet) return;
      if (workbook.Workbook?.Sheets?.[index]?.Hidden) {
        warnings.push(`skipped the hidden sheet "${sheetName}"`);
        return;
      }
      const rows = sheetRows(sheet);
      // A sheet read only in part (`!fullref`) is over the limit by itself.
      const full = sheet['!fullref'];
      rowCount += full ? XLSX.utils.decode_range(full).e.r + 1 : rows.length;
      if (rowCount > this.limits.maxRows) {
        throw documentOverLimit('maxRows', name, rowCount, this.limits.maxRows, { atLeast: !full });
      }
      blocks.push(...sheetBlocks(rows, { headingPath: [sheetName], sheet: sheetName }));
    });
    if (blocks.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${name} has no cells with content`);
    }
    const props: XLSX.FullProperties = workbook.Props ?? {};
    const metadata: Record<string, string> = {};
    if (props.Title) metadata.title = props.Title;
    if (props.Author) metadata.creator = props.Author;
    const document: ParsedDocument = {
      title: props.Title?.trim() || basename(name, extname(name)),
      metadata,
      blocks,
    };
    if (warnings.length > 0) document.warnings = capWarnings(warnings);
    return document;
  }

  /** A zip goes through safe-zip first; an OLE file must not be a password-protected workbook. */
  private async checkContainer(name: string, data: Buffer): Promise<void> {
    if (data.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
      const zip = await openZip(data, { limits: documentZipLimits(this.limits), archiveName: name });
      try {
        if (zip.has('mimetype') || zip.has('content.xml')) {
          await checkOdfPackage(zip, name, MEDIA_TYPES.ods, 'spreadsheet');
        } else if (!zip.has('xl/workbook.xml') && !zip.has('xl/workbook.bin')) {
          throw new PermanentDocumentError(
            TroveErrorCode.ParseFailed,
            `${name} is not a workbook: it is a zip archive without xl/workbook.xml or content.xml`,
          );
        } else {
          await checkDeclaredSizes(zip, name, this.limits);
        }
        await zip.verifyAll();
      } finally {
        zip.close();
      }
      return;
    }
    if (isOleFile(data)) {
      if (isEncryptedOffice(data)) {
        throw new PermanentDocumentError(
          TroveErrorCode.EncryptedDocument,
          `${name} is password-protected; save it without a password and upload it again`,
        );
      }
      return;
    }
    throw new PermanentDocumentError(
      TroveErrorCode.CorruptDocument,
      `${name} is not an Excel or OpenDocument workbook (neither a zip archive nor an OLE compound file)`,
    );
  }
}

/**
 * What an XLSX file declares at the start of its parts, checked before anything is inflated in
 * full: the rows its sheets span (`<dimension ref="A1:D51">`) and the entries of its shared
 * strings table (`<sst uniqueCount="…">`). Declarations may be missing or understate; the rows
 * read are checked again.
 */
async function checkDeclaredSizes(zip: SafeZip, name: string, limits: SpreadsheetLimits): Promise<void> {
  let rows = 0;
  for (const entry of zip.entries) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(entry.path)) continue;
    const head = await entryHead(zip, entry.path);
    const ref = /<(?:\w+:)?dimension\b[^>]*\bref="([A-Z]+\d+)(?::([A-Z]+\d+))?"/.exec(head);
    if (!ref) continue;
    rows += XLSX.utils.decode_range(ref[2] ? `${ref[1]}:${ref[2]}` : ref[1]).e.r + 1;
    checkDocumentLimit(limits, 'maxRows', name, rows);
  }
  if (zip.has('xl/sharedStrings.xml')) {
    const head = await entryHead(zip, 'xl/sharedStrings.xml');
    const sst = /<(?:\w+:)?sst\b[^>]*>/.exec(head)?.[0] ?? '';
    const declared = Math.max(
      ...['uniqueCount', 'count'].map((attribute) =>
        Number(new RegExp(`\\b${attribute}="(\\d+)"`).exec(sst)?.[1] ?? 0),
      ),
    );
    // Each shared string is text of the workbook: at least a character of it, for any that is used.
    if (declared > limits.maxTextChars) {
      throw documentOverLimit(
        'maxTextChars',
        `${name} (its shared strings table)`,
        declared,
        limits.maxTextChars,
        {
          atLeast: true,
        },
      );
    }
  }
}

/** The first {@link HEAD_BYTES} of a part, as text. */
async function entryHead(zip: SafeZip, path: string): Promise<string> {
  const stream = await zip.openReadStream(path);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= HEAD_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('utf8');
}

/** The sheet's rows as cells with their displayed text; dense sheets hold only the rows that exist. */
function sheetRows(sheet: XLSX.WorkSheet): SheetRow[] {
  const rows: SheetRow[] = [];
  (sheet['!data'] ?? []).forEach((row, r) => {
    if (!row) return;
    const cells: (SheetCell | undefined)[] = [];
    row.forEach((cell, c) => {
      if (!cell || cell.t === 'z') return;
      cells[c] = { text: displayed(cell), value: cell.t !== 's' };
    });
    rows.push({ number: r + 1, cells });
  });
  return rows;
}

/**
 * What the cell shows; dates (a day number under a date format) as yyyy-mm-dd, with the time
 * when it has one, whatever the file's own format (m/d/yy, mmm d, yy…) — one unambiguous form
 * for every workbook. Times of day alone keep their format.
 */
function displayed(cell: XLSX.CellObject): string {
  if (cell.t === 'n' && typeof cell.v === 'number' && cell.v >= 1 && cell.z && XLSX.SSF.is_date(cell.z)) {
    return XLSX.SSF.format(cell.v % 1 ? 'yyyy-mm-dd hh:mm' : 'yyyy-mm-dd', cell.v) as string;
  }
  return cell.w ?? (cell.v === undefined || cell.v === null ? '' : String(cell.v));
}

function readError(name: string, error: unknown): PermanentDocumentError {
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (error instanceof RangeError && /call stack/i.test(message)) {
    return new PermanentDocumentError(
      TroveErrorCode.ParseLimitExceeded,
      `${name} is nested too deeply to read (${message})`,
      error,
    );
  }
  if (/password|encrypt/i.test(message)) {
    return new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${name} is password-protected; save it without a password and upload it again`,
      error,
    );
  }
  return new PermanentDocumentError(
    TroveErrorCode.CorruptDocument,
    `${name} could not be read as a workbook: ${message}`,
    error,
  );
}
