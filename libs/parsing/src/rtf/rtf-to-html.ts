import { escapeHtml } from '../html/xml-elements';

/** What an RTF file holds once its control words are read: its text as HTML, and its title. */
export interface RtfContent {
  html: string;
  title?: string;
}

/**
 * Destinations whose text is not the document's: tables of fonts, colours and styles, pictures,
 * embedded objects, headers and footers, comments, rendered list numbers, field instructions.
 * Any group starting with `\*` that is not read below is skipped too, as the specification asks.
 */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'annotation',
  'atnid',
  'atnauthor',
  'pntext',
  'listtext',
  'fldinst',
  'nonshppict',
  'shppict',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'generator',
  'xmlnstbl',
  'filetbl',
  'bkmkstart',
  'bkmkend',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
  'aftnsepc',
]);
/** `\info` holds the document's properties: only its title is read. */
const INFO_FIELDS = new Set(['title']);

/** Windows code pages by the `\fcharset` of a font. */
const CHARSET_CODEPAGE: Record<number, number> = {
  0: 1252,
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};

/** TextDecoder labels of the code pages RTF names with `\ansicpg` (and fonts with `\fcharset`). */
function decoderLabel(codepage: number): string {
  if (codepage === 874 || (codepage >= 1250 && codepage <= 1258)) return `windows-${codepage}`;
  switch (codepage) {
    case 932:
      return 'shift_jis';
    case 936:
      return 'gbk';
    case 949:
      return 'euc-kr';
    case 950:
      return 'big5';
    case 866:
      return 'ibm866';
    case 10000:
      return 'macintosh';
    default:
      return 'windows-1252';
  }
}

interface GroupState {
  /** Text in this group is not the document's (a skipped destination). */
  skip: boolean;
  /** Hidden text (`\v`). */
  hidden: boolean;
  /** Where the text goes: the body, or a field of `\info`. */
  target: 'body' | 'info' | 'title';
  /** Characters of fallback text after a `\u` character (`\ucN`). */
  uc: number;
  /** Code page of the current font. */
  codepage?: number;
  /** Inside the font table: the font being defined. */
  fontTable: boolean;
}

/**
 * Reads RTF into HTML for {@link htmlToBlocks}: paragraphs, headings (paragraphs with an
 * `\outlinelevel`), line breaks and tables (`\intbl` paragraphs, `\cell`, `\row`) with their cells.
 * Text in a legacy code page (`\ansicpg`, a font's `\fcharset`) and `\u` characters are decoded;
 * destinations that are not text (fonts, pictures, headers, fields' instructions) are skipped.
 * The scan is iterative: deep nesting costs memory, not stack.
 */
export function rtfToHtml(data: Buffer): RtfContent {
  return new RtfReader(data).read();
}

class RtfReader {
  private pos = 0;
  private readonly stack: GroupState[] = [];
  private state: GroupState = { skip: false, hidden: false, target: 'body', uc: 1, fontTable: false };
  private defaultCodepage = 1252;
  private readonly fontCodepages = new Map<number, number>();
  private currentFont: number | undefined;
  /** Bytes of `\'hh` escapes (and raw 8-bit bytes) waiting to be decoded together (double-byte code pages). */
  private bytes: number[] = [];
  /** Fallback characters still to skip after a `\u`. */
  private skipChars = 0;
  /** A destination marker (`\*`) was just read: the next control word names the destination. */
  private starred = false;
  /** A group has just opened: its first control word may name a destination. */
  private groupStart = false;

  private readonly out: string[] = [];
  private paragraph: string[] = [];
  private inTable = false;
  private outlineLevel: number | undefined;
  private row: string[] = [];
  private rows: string[] = [];
  private title = '';

  constructor(private readonly data: Buffer) {}

  read(): RtfContent {
    const data = this.data;
    while (this.pos < data.length) {
      const byte = data[this.pos];
      if (byte === 0x7b /* { */) {
        this.flushBytes();
        this.stack.push(this.state);
        this.state = { ...this.state };
        this.groupStart = true;
        this.skipChars = 0;
        this.pos++;
      } else if (byte === 0x7d /* } */) {
        this.flushBytes();
        this.state = this.stack.pop() ?? this.state;
        this.groupStart = false;
        this.starred = false;
        this.skipChars = 0;
        this.pos++;
      } else if (byte === 0x5c /* \ */) {
        this.control();
      } else if (byte === 0x0d || byte === 0x0a) {
        this.pos++;
      } else {
        this.groupStart = false;
        this.pos++;
        if (this.consumeFallback()) continue;
        if (byte >= 0x80) this.bytes.push(byte);
        else this.text(String.fromCharCode(byte));
      }
    }
    this.flushBytes();
    this.endParagraph();
    this.endTable();
    return { html: this.out.join(''), ...(this.title.trim() ? { title: this.title.trim() } : {}) };
  }

  private control(): void {
    const data = this.data;
    const next = data[this.pos + 1];
    if (next === undefined) {
      this.pos++;
      return;
    }
    if (!isLetter(next)) {
      this.pos += 2;
      this.symbol(String.fromCharCode(next));
      return;
    }
    let end = this.pos + 1;
    while (end < data.length && isLetter(data[end]) && end - this.pos <= 32) end++;
    const word = data.subarray(this.pos + 1, end).toString('latin1');
    let paramEnd = end;
    if (data[paramEnd] === 0x2d /* - */) paramEnd++;
    while (paramEnd < data.length && data[paramEnd] >= 0x30 && data[paramEnd] <= 0x39 && paramEnd - end < 11)
      paramEnd++;
    const param =
      paramEnd > end ? Number.parseInt(data.subarray(end, paramEnd).toString('latin1'), 10) : undefined;
    this.pos = data[paramEnd] === 0x20 ? paramEnd + 1 : paramEnd;
    this.word(word, Number.isNaN(param) ? undefined : param);
  }

  private symbol(symbol: string): void {
    this.groupStart = false;
    if (symbol === "'") {
      const hex = this.data.subarray(this.pos, this.pos + 2).toString('latin1');
      this.pos += 2;
      if (this.consumeFallback()) return;
      const value = Number.parseInt(hex, 16);
      if (!Number.isNaN(value)) this.bytes.push(value);
      return;
    }
    if (symbol === '*') {
      this.starred = true;
      return;
    }
    if (this.consumeFallback()) return;
    switch (symbol) {
      case '\\':
      case '{':
      case '}':
        this.text(symbol);
        break;
      case '~':
        this.text('\u00a0');
        break;
      case '_':
        this.text('\u2011');
        break;
      case '\n':
      case '\r':
        this.word('par', undefined);
        break;
      default:
        // `\-` (optional hyphen), `\:` (index subentry) and unknown symbols add no text.
        break;
    }
  }

  private word(word: string, param: number | undefined): void {
    const destination = this.groupStart || this.starred;
    const starred = this.starred;
    this.groupStart = false;
    this.starred = false;
    if (word === 'bin') {
      // Raw binary data follows (a picture): never text.
      this.flushBytes();
      this.pos += Math.max(0, param ?? 0);
      return;
    }
    if (destination && this.destination(word, starred)) return;
    if (this.state.fontTable) {
      if (word === 'f' && param !== undefined) this.currentFont = param;
      if (word === 'fcharset' && param !== undefined && this.currentFont !== undefined) {
        const codepage = CHARSET_CODEPAGE[param];
        if (codepage) this.fontCodepages.set(this.currentFont, codepage);
      }
      return;
    }
    switch (word) {
      case 'ansicpg':
        if (param && param > 0) this.defaultCodepage = param;
        return;
      case 'f':
        if (param !== undefined) {
          this.flushBytes();
          this.state.codepage = this.fontCodepages.get(param);
        }
        return;
      case 'uc':
        if (param !== undefined && param >= 0) this.state.uc = Math.min(param, 10);
        return;
      case 'u':
        if (param !== undefined) {
          this.flushBytes();
          this.text(String.fromCharCode(param < 0 ? param + 65536 : param));
          this.skipChars = this.state.uc;
        }
        return;
      case 'v':
        this.flushBytes();
        this.state.hidden = param !== 0;
        return;
      case 'plain':
        this.flushBytes();
        this.state.hidden = false;
        return;
    }
    if (this.state.skip) return;
    switch (word) {
      case 'par':
      case 'sect':
      case 'page':
        this.endParagraph();
        return;
      case 'line':
        this.text('\n');
        return;
      case 'tab':
        this.text(' ');
        return;
      case 'emdash':
        this.text('\u2014');
        return;
      case 'endash':
        this.text('\u2013');
        return;
      case 'lquote':
        this.text('\u2018');
        return;
      case 'rquote':
        this.text('\u2019');
        return;
      case 'ldblquote':
        this.text('\u201c');
        return;
      case 'rdblquote':
        this.text('\u201d');
        return;
      case 'bullet':
        this.text('\u2022');
        return;
      case 'pard':
        this.flushBytes();
        this.inTable = false;
        this.outlineLevel = undefined;
        return;
      case 'intbl':
        this.inTable = true;
        return;
      case 'outlinelevel':
        if (param !== undefined && param >= 0 && param < 9) this.outlineLevel = param;
        return;
      case 'cell':
        this.endCell();
        return;
      case 'nestcell':
      case 'nestrow':
        this.text(' ');
        return;
      case 'row':
        this.endRow();
        return;
    }
  }

  /** Starts a destination group's reading; true when the word named one. */
  private destination(word: string, starred: boolean): boolean {
    if (word === 'fonttbl') {
      this.state.fontTable = true;
      this.state.skip = true;
      return true;
    }
    if (word === 'info') {
      this.state.target = 'info';
      this.state.skip = true;
      return true;
    }
    if (this.state.target === 'info') {
      if (INFO_FIELDS.has(word)) {
        this.state.target = 'title';
        this.state.skip = false;
      }
      return true;
    }
    if (SKIPPED.has(word) || starred) {
      this.state.skip = true;
      return true;
    }
    return false;
  }

  /** After `\u`, the fallback characters that follow for readers without Unicode are dropped. */
  private consumeFallback(): boolean {
    if (this.skipChars <= 0) return false;
    this.skipChars--;
    return true;
  }

  private text(text: string): void {
    this.flushBytes();
    this.append(text);
  }

  private append(text: string): void {
    if (this.state.skip || this.state.hidden) return;
    if (this.state.target === 'title') this.title += text;
    else if (this.state.target === 'body') this.paragraph.push(text);
  }

  private flushBytes(): void {
    if (this.bytes.length === 0) return;
    const codepage = this.state.codepage ?? this.defaultCodepage;
    let decoded: string;
    try {
      decoded = new TextDecoder(decoderLabel(codepage)).decode(Uint8Array.from(this.bytes));
    } catch {
      decoded = new TextDecoder('windows-1252').decode(Uint8Array.from(this.bytes));
    }
    this.bytes = [];
    this.append(decoded);
  }

  private paragraphHtml(): string {
    const text = this.paragraph.join('');
    this.paragraph = [];
    return escapeHtml(text).replace(/\n/g, '<br>');
  }

  private endParagraph(): void {
    this.flushBytes();
    if (this.inTable) {
      // A paragraph inside a cell: the cell goes on.
      this.paragraph.push('\n');
      return;
    }
    this.endTable();
    const html = this.paragraphHtml();
    if (!html.replace(/<br>/g, '').trim()) return;
    const level = this.outlineLevel;
    this.out.push(
      level === undefined
        ? `<p>${html}</p>`
        : `<h${Math.min(level + 1, 6)}>${html}</h${Math.min(level + 1, 6)}>`,
    );
  }

  private endCell(): void {
    this.flushBytes();
    this.row.push(`<td>${this.paragraphHtml()}</td>`);
  }

  private endRow(): void {
    this.flushBytes();
    if (this.paragraph.join('').trim()) this.endCell();
    this.paragraph = [];
    if (this.row.length > 0) this.rows.push(`<tr>${this.row.join('')}</tr>`);
    this.row = [];
  }

  private endTable(): void {
    if (this.row.length > 0) this.endRow();
    if (this.rows.length === 0) return;
    this.out.push(`<table>${this.rows.join('')}</table>`);
    this.rows = [];
  }
}

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}
