import { basename, extname } from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { MEDIA_TYPES, PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { DEFAULT_ZIP_LIMITS, openZip, type ZipLimits } from '../archive/safe-zip';
import { checkOdfPackage } from '../odf/odf-package';
import { isEncryptedOffice, isOleFile } from '../office/ole';
import { capWarnings, oneLine } from '../warnings';
import { sheetBlocks, type SheetCell, type SheetRow } from './sheet-table';

export interface SpreadsheetLimits {
  /** Rows read per sheet; the rest are left out and listed in `warnings`. */
  maxRowsPerSheet: number;
}

export const DEFAULT_SPREADSHEET_LIMITS: Readonly<SpreadsheetLimits> = Object.freeze({
  maxRowsPerSheet: 100_000,
});

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Workbooks: XLSX (and XLSM), legacy XLS (BIFF, in an OLE file) and ODS, read by SheetJS. Each
 * visible sheet is a section (its heading path and `sheet` are the sheet's name) holding one
 * table (see {@link sheetBlocks}: header row detected, rows numbered as in the sheet). Cells show
 * what the spreadsheet shows (formatted numbers, formula results), dates as yyyy-mm-dd.
 *
 * A zip-based workbook is checked and fully inflated under safe-zip's limits before SheetJS, whose
 * own zip reader has none, sees it; an OpenDocument one must also be unencrypted. Macros, images
 * and styles are never read.
 */
export class SpreadsheetParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.xlsx, MEDIA_TYPES.xls, MEDIA_TYPES.ods] as const;

  constructor(
    private readonly limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS,
    private readonly zipLimits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ) {}

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
        sheetRows: this.limits.maxRowsPerSheet,
      });
    } catch (error) {
      throw readError(name, error);
    }

    const warnings: string[] = [];
    const blocks: ParsedBlock[] = [];
    workbook.SheetNames.forEach((sheetName, index) => {
      const sheet = workbook.Sheets[sheetName];
      if (!sheet) return;
      if (workbook.Workbook?.Sheets?.[index]?.Hidden) {
        warnings.push(`skipped the hidden sheet "${sheetName}"`);
        return;
      }
      blocks.push(...sheetBlocks(sheetRows(sheet), { headingPath: [sheetName], sheet: sheetName }));
      const full = sheet['!fullref'];
      if (full) {
        const total = XLSX.utils.decode_range(full).e.r + 1;
        warnings.push(
          `sheet "${sheetName}": only the first ${this.limits.maxRowsPerSheet.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows were read`,
        );
      }
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
      const zip = await openZip(data, { limits: this.zipLimits, archiveName: name });
      try {
        if (zip.has('mimetype') || zip.has('content.xml')) {
          await checkOdfPackage(zip, name, MEDIA_TYPES.ods, 'spreadsheet');
        } else if (!zip.has('xl/workbook.xml') && !zip.has('xl/workbook.bin')) {
          throw new PermanentDocumentError(
            TroveErrorCode.ParseFailed,
            `${name} is not a workbook: it is a zip archive without xl/workbook.xml or content.xml`,
          );
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
