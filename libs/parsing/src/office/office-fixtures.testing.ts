/** Test-only builders of Office and OpenDocument files, made in memory: workbooks, presentations, text documents. */
import * as XLSX from '@e965/xlsx';
import { MEDIA_TYPES } from '@trove/domain';
import { buildZip, type FixtureEntry } from '../archive/zip-fixtures.testing';
import { escapeHtml as esc } from '../html/xml-elements';

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface FixtureSheet {
  name: string;
  /** Cell values by row (numbers, strings, dates, booleans; null for an empty cell). */
  rows: unknown[][];
  hidden?: boolean;
}

/** A workbook written by SheetJS: `xlsx`, `xls` (BIFF8 in an OLE file) or `ods`. */
export function workbook(sheets: FixtureSheet[], bookType: 'xlsx' | 'xls' | 'ods' = 'xlsx'): Buffer {
  const book = XLSX.utils.book_new();
  for (const sheet of sheets) {
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet.rows), sheet.name);
  }
  book.Workbook = {
    Sheets: sheets.map((sheet): XLSX.SheetProps => ({ name: sheet.name, Hidden: sheet.hidden ? 1 : 0 })),
  };
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/**
 * An XLSX package around one worksheet's XML as given (`<sheetData>` and all): for sheets no
 * writer would make, such as one claiming the whole 16,384 × 1,048,576 grid. `doctype` goes
 * before the sheet's root (entity declarations of a hostile file).
 */
export function xlsxPackage(sheetXml: string, extra: FixtureEntry[] = [], doctype = ''): Promise<Buffer> {
  return buildZip([
    {
      path: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      path: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      path: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      path: 'xl/worksheets/sheet1.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?>${doctype}<worksheet xmlns="${SHEET_NS}">${sheetXml}</worksheet>`,
    },
    ...extra,
  ]);
}

export interface FixtureSlide {
  title?: string;
  /** Paragraphs of the body text box. */
  body?: string[];
  /** A table on the slide, first row its header. */
  table?: string[][];
  /** Paragraphs of the speaker notes. */
  notes?: string[];
  hidden?: boolean;
}

const P_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

const paragraphs = (texts: string[]) =>
  texts.map((text) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(text)}</a:t></a:r></a:p>`).join('');

function shape(id: number, placeholder: string | undefined, texts: string[]): string {
  const ph =
    placeholder === undefined ? '' : `<p:nvPr><p:ph${placeholder ? ` type="${placeholder}"` : ''}/></p:nvPr>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/>${ph || '<p:nvPr/>'}</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs(texts)}</p:txBody></p:sp>`;
}

function tableFrame(rows: string[][]): string {
  const cells = (row: string[]) =>
    row.map((cell) => `<a:tc><a:txBody><a:bodyPr/>${paragraphs([cell])}</a:txBody><a:tcPr/></a:tc>`).join('');
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid/>${rows.map((row) => `<a:tr h="370840">${cells(row)}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

/**
 * A PowerPoint package: slides with a title, a body, a table and speaker notes, plus a
 * slide-number placeholder. `doctype` goes before each slide's root (a hostile file's entities).
 */
export function pptxPackage(
  slides: FixtureSlide[],
  extra: FixtureEntry[] = [],
  title = '',
  doctype = '',
): Promise<Buffer> {
  const entries: FixtureEntry[] = [
    {
      path: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`,
    },
    {
      path: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
    },
    {
      path: 'ppt/presentation.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P_NS}><p:sldIdLst>${slides
        .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`)
        .join('')}</p:sldIdLst></p:presentation>`,
    },
    {
      path: 'ppt/_rels/presentation.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/slideMaster" Target="slideMasters/slideMaster1.xml"/>${slides
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 2}" Type="${REL_NS}/slide" Target="slides/slide${i + 1}.xml"/>`,
        )
        .join('')}</Relationships>`,
    },
  ];
  slides.forEach((slide, i) => {
    const n = i + 1;
    const tree = [
      slide.title === undefined ? '' : shape(2, 'title', [slide.title]),
      slide.body ? shape(3, '', slide.body) : '',
      slide.table ? tableFrame(slide.table) : '',
      shape(4, 'sldNum', [String(n)]),
    ].join('');
    entries.push({
      path: `ppt/slides/slide${n}.xml`,
      data: `<?xml version="1.0" encoding="UTF-8"?>${doctype}<p:sld ${P_NS}${slide.hidden ? ' show="0"' : ''}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${tree}</p:spTree></p:cSld></p:sld>`,
    });
    const rels = [
      `<Relationship Id="rId1" Type="${REL_NS}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`,
    ];
    if (slide.notes) {
      rels.push(
        `<Relationship Id="rId2" Type="${REL_NS}/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/>`,
      );
      entries.push({
        path: `ppt/notesSlides/notesSlide${n}.xml`,
        data: `<?xml version="1.0" encoding="UTF-8"?><p:notes ${P_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, 'sldImg', [])}${shape(3, 'body', slide.notes)}${shape(4, 'sldNum', [String(n)])}</p:spTree></p:cSld></p:notes>`,
      });
    }
    entries.push({
      path: `ppt/slides/_rels/slide${n}.xml.rels`,
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}">${rels.join('')}</Relationships>`,
    });
  });
  if (title) {
    entries.push({
      path: 'docProps/core.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title></cp:coreProperties>`,
    });
  }
  return buildZip([...entries, ...extra]);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"';

/**
 * An OpenDocument package: the stored `mimetype` first, a manifest (optionally encrypted),
 * content.xml (`doctype` before its root) and meta.xml.
 */
export function odfPackage(
  mediaType: string,
  body: string,
  options: { title?: string; encrypted?: boolean; extra?: FixtureEntry[]; doctype?: string } = {},
): Promise<Buffer> {
  const kind =
    mediaType === MEDIA_TYPES.odp ? 'presentation' : mediaType === MEDIA_TYPES.ods ? 'spreadsheet' : 'text';
  const encryption = options.encrypted
    ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB"/></manifest:encryption-data>'
    : '';
  return buildZip([
    { path: 'mimetype', data: mediaType, compress: false },
    {
      path: 'META-INF/manifest.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mediaType}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encryption}</manifest:file-entry></manifest:manifest>`,
    },
    {
      path: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?>${options.doctype ?? ''}<office:document-content ${ODF_NS}><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
    },
    {
      path: 'meta.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ODF_NS}><office:meta>${options.title ? `<dc:title>${esc(options.title)}</dc:title>` : ''}</office:meta></office:document-meta>`,
    },
    ...(options.extra ?? []),
  ]);
}
