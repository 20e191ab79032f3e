import { createHash } from 'node:crypto';
import type { Chunk, ParsedBlock, ParsedDocument } from '@trove/domain';
import { detectLanguage, wellFormedText } from '@trove/domain';
import { repeatedHeader, tableParts } from './table-header';
import { sentencesOf, windowEnd } from './text-windows';
import type { TokenCounter } from './token-counter';

export interface ChunkerOptions {
  /** Chunks are packed up to this many tokens. */
  targetTokens: number;
  /** Tokens of a section's previous chunk repeated at the start of the next one. */
  overlapTokens: number;
  /**
   * A chunk smaller than this (a heading with one line under it) merges with the next chunk when
   * that one is in the same section or a subsection of it and the two fit the target together.
   * 0 turns merging off.
   */
  minTokens?: number;
}

export interface ChunkContext {
  documentId: string;
  projectId: string;
}

/** A piece of a block that fits in a chunk. `code` pieces are never cut further or used as overlap. */
interface Unit {
  text: string;
  tokens: number;
  code: boolean;
  codeLanguage?: string;
  /**
   * A piece of a table cut across chunks: never used as overlap, so a chunk of rows starts with
   * the table's header rather than with the previous chunk's last rows.
   */
  table?: boolean;
  /** A table piece that repeats the header: it always starts a chunk, so the header appears once. */
  repeatsHeader?: boolean;
  /** Joins this unit to the one before it: pieces of one block keep their own spacing. */
  sep?: string;
  /** Where the block this unit comes from sits in its source. */
  anchor?: string;
  page?: number;
  pageEnd?: number;
  chapter?: string;
  sheet?: string;
  /** Spreadsheet tables: the first and last sheet rows of the unit's table rows. */
  rows?: [number, number];
  /** Lines of the text it was cut from that the unit holds, first and last (0-based). */
  lines?: [number, number];
  /** The block was recognised by OCR with this confidence. */
  ocrConfidence?: number;
}

/** A packed chunk before it gets its id: text plus where it comes from. */
interface Piece {
  headingPath: string[];
  text: string;
  tokens: number;
  anchor?: string;
  page?: number;
  pageEnd?: number;
  chapter?: string;
  sheet?: string;
  rowStart?: number;
  rowEnd?: number;
  codeLanguages: string[];
  /** Confidences of the OCR'd units in the chunk (none when it has no OCR'd text). */
  ocrConfidences: number[];
}

interface Section {
  headingPath: string[];
  blocks: ParsedBlock[];
}

/**
 * Structure-aware chunking: a chunk never spans two sections (heading boundaries); within a
 * section, blocks are packed up to the token target, a block too large on its own is split at
 * sentence (prose) or line (code, lists, tables) boundaries, and consecutive chunks of one section
 * share a tail of `overlapTokens` of prose. Whatever is still larger than the target (a sentence,
 * a line, a table row, a "word" of megabytes without a space) is cut further, so no chunk exceeds
 * the target. Every step is linear in the document's length.
 */
export class Chunker {
  private readonly sentences = new Intl.Segmenter('und', { granularity: 'sentence' });

  constructor(
    private readonly tokens: TokenCounter,
    private readonly options: ChunkerOptions,
  ) {}

  chunk(parsed: ParsedDocument, context: ChunkContext): Chunk[] {
    const doc = wellFormedDocument(parsed);
    const pieces: Piece[] = [];
    for (const section of sections(doc.blocks)) {
      const units = section.blocks.flatMap((block) => this.units(block));
      pieces.push(...this.pack(units).map((piece) => ({ ...piece, headingPath: section.headingPath })));
    }
    return this.mergeTiny(pieces).map((piece, position) => this.makeChunk(doc, context, piece, position));
  }

  /** The text sent to the embedding model: the title and heading path give the chunk its context. */
  static embeddingText(chunk: Pick<Chunk, 'title' | 'headingPath' | 'text'>): string {
    const path = [chunk.title, ...chunk.headingPath].filter(Boolean).join(' › ');
    return path ? `${path}\n\n${chunk.text}` : chunk.text;
  }

  private makeChunk(doc: ParsedDocument, context: ChunkContext, piece: Piece, position: number): Chunk {
    const { headingPath, text, anchor, page, pageEnd, chapter, sheet, rowStart, rowEnd } = piece;
    const { codeLanguages, ocrConfidences } = piece;
    const base = { title: doc.title, headingPath, text };
    const contentHash = createHash('sha256').update(Chunker.embeddingText(base)).digest('hex');
    return {
      id: `${context.documentId}-${position}-${contentHash.slice(0, 12)}`,
      documentId: context.documentId,
      projectId: context.projectId,
      position,
      ...base,
      tokenCount: piece.tokens,
      contentHash,
      language: detectLanguage(text),
      hasCode: codeLanguages.length > 0 || /^(```|~~~)/m.test(text),
      codeLanguages,
      ...(anchor ? { anchor } : {}),
      ...(page ? { page, pageEnd: pageEnd ?? page } : {}),
      ...(chapter ? { chapter } : {}),
      ...(sheet ? { sheet } : {}),
      ...(rowStart ? { rowStart, rowEnd: rowEnd ?? rowStart } : {}),
      ...(ocrConfidences.length
        ? {
            ocr: true,
            ocrConfidence: Math.round(ocrConfidences.reduce((a, b) => a + b, 0) / ocrConfidences.length),
          }
        : {}),
    };
  }

  private units(block: ParsedBlock): Unit[] {
    const target = this.options.targetTokens;
    const tokens = this.countUpTo(block.text, target);
    const code = block.kind === 'code';
    const origin = {
      anchor: block.anchor,
      page: block.page,
      pageEnd: block.pageEnd,
      chapter: block.chapter,
      sheet: block.sheet,
      ...(block.ocr ? { ocrConfidence: block.ocrConfidence ?? 0 } : {}),
    };
    // Sheet rows only matter for tables read from a spreadsheet.
    const lineCount = block.rowNumbers?.length ? block.text.split('\n').length : 0;
    if (tokens <= target) {
      const rows = rowRange([0, lineCount - 1], lineCount, block.rowNumbers);
      return [{ text: block.text, tokens, code, codeLanguage: block.codeLanguage, ...origin, rows }];
    }
    let pieces: Unit[];
    if (code) pieces = this.splitCode(block);
    else if (block.kind === 'paragraph' || block.kind === 'quote') pieces = this.splitProse(block.text);
    else if (block.kind === 'table') pieces = this.splitTable(block.text);
    else pieces = this.splitLines(block.text.split('\n'), false);
    // Pieces of one block keep their spacing when packed together; the first starts a new block.
    return pieces.map((piece, i) => ({
      ...piece,
      sep: i === 0 ? undefined : piece.sep,
      ...origin,
      rows: piece.lines && rowRange(piece.lines, lineCount, block.rowNumbers),
    }));
  }

  /** Long prose: sentence by sentence; a sentence longer than the target is cut by words. */
  private splitProse(text: string): Unit[] {
    const units: Unit[] = [];
    for (const segment of sentencesOf(this.sentences, text)) {
      const sentence = segment.trim();
      if (!sentence) continue;
      const tokens = this.countUpTo(sentence, this.options.targetTokens);
      if (tokens <= this.options.targetTokens) units.push({ text: sentence, tokens, code: false, sep: ' ' });
      else units.push(...this.splitWords(sentence));
    }
    return units;
  }

  /**
   * Words joined by single spaces, packed up to `budget`; a word longer than the budget on its own
   * (a URL, a base64 blob, a 40 MB CSV field) is cut into pieces that fit. Counted word by word,
   * so the work is linear in the text: a word adds what the word with a space before it costs.
   */
  private splitWords(text: string, budget = this.options.targetTokens): Unit[] {
    const units: Unit[] = [];
    let current: string[] = [];
    let tokens = 0;
    // Joins the next unit to the one before: a space between words, nothing inside a cut word.
    let sep = ' ';
    const flush = () => {
      if (current.length) units.push(...this.fitted(current, budget, sep));
      current = [];
      tokens = 0;
      sep = ' ';
    };
    for (const word of text.split(/\s+/)) {
      const cost = this.countUpTo(current.length ? ` ${word}` : word, budget);
      if (tokens + cost <= budget) {
        current.push(word);
        tokens += cost;
        continue;
      }
      if (this.countUpTo(word, budget) <= budget) {
        flush();
        current = [word];
        tokens = this.tokens.count(word);
        continue;
      }
      // A word longer than the budget: its first piece fills the unit of the words before it
      // (when a fair share of it is left), the others follow unspaced; only its last piece may
      // share a unit with the words after it.
      if (current.length && budget - tokens < budget / 4) flush();
      const pieces = this.cutToFit(word, budget, budget - tokens);
      if (current.length) {
        current.push(pieces.shift()!);
        flush();
        sep = '';
      }
      const last = pieces.pop();
      for (const piece of pieces) {
        units.push({ ...this.unit(piece, false), sep });
        sep = '';
      }
      if (last !== undefined) {
        current = [last];
        tokens = this.tokens.count(last);
      }
    }
    flush();
    return units;
  }

  /**
   * `words` as one unit. Where its count exceeds the budget after all (a word that starts with a
   * combining mark joins the space before it, so word-by-word costs can be a token short), it is
   * halved until each part fits.
   */
  private fitted(words: string[], budget: number, sep: string): Unit[] {
    const unit = this.unit(words.join(' '), false);
    if (unit.tokens <= budget || words.length === 1) return [{ ...unit, sep }];
    const half = Math.ceil(words.length / 2);
    return [
      ...this.fitted(words.slice(0, half), budget, sep),
      ...this.fitted(words.slice(half), budget, ' '),
    ];
  }

  /**
   * `text` cut into consecutive pieces of at most `budget` tokens each (the first of at most
   * `firstBudget`; a single character over the budget stays whole), each nearly as long as its
   * budget allows and ending at the best cut near there (after a word, at punctuation, else
   * between two characters; see `text-windows.ts`). A piece's length is guessed from the tokens
   * counted for the previous guess, so each piece is counted a few times at most.
   */
  private cutToFit(text: string, budget: number, firstBudget = budget): string[] {
    const pieces: string[] = [];
    let guess = Math.max(1, firstBudget) * 4;
    for (let start = 0; start < text.length;) {
      const limit = pieces.length ? budget : firstBudget;
      const rest = text.length - start;
      let fits = 0; // a length known to fit
      let over = rest + 1; // a length known not to
      let length = Math.min(guess, rest);
      for (let tries = 0; tries < 16 && over - fits > 1; tries++) {
        const tokens = this.tokens.count(text.slice(start, start + length));
        if (tokens <= limit) {
          fits = length;
          if (length === rest || tokens >= limit * 0.9) break;
        } else {
          over = length;
        }
        const scaled = Math.floor((length * limit) / Math.max(tokens, 1));
        length = tries < 4 ? scaled : (fits + over) >> 1;
        length = Math.min(over - 1, Math.max(fits + 1, length));
      }
      let end = start + Math.max(fits, codePointLength(text, start));
      if (end < text.length) {
        // The best cut in the piece's last quarter; never inside a surrogate pair.
        const nicer = windowEnd(text, start, end - start, Math.ceil(((end - start) * 3) / 4));
        if (nicer === end || this.tokens.count(text.slice(start, nicer)) <= limit) end = nicer;
        else if (isLowSurrogate(text.charCodeAt(end))) end += end - 1 > start ? -1 : 1;
      }
      pieces.push(text.slice(start, end));
      guess = Math.max(1, end - start);
      start = end;
    }
    return pieces;
  }

  /** Long code blocks are cut between lines, and each piece is re-fenced so it stays valid Markdown. */
  private splitCode(block: ParsedBlock): Unit[] {
    const lines = block.text.split('\n');
    const fence = /^(```+|~~~+)/.exec(lines[0])?.[1];
    const body =
      fence && lines.length >= 2 && lines[lines.length - 1].startsWith(fence) ? lines.slice(1, -1) : lines;
    const open = fence ? `${fence}${block.codeLanguage ?? ''}` : '';
    const pieces = this.splitLines(body, true, fence ? this.tokens.count(`${open}\n${fence}`) : 0);
    return pieces.map((piece) => {
      const text = fence ? `${open}\n${piece.text}\n${fence}` : piece.text;
      return { ...this.unit(text, true), codeLanguage: block.codeLanguage };
    });
  }

  /**
   * Cuts between lines; a line longer than the budget is cut further. Each unit names the lines
   * it holds (`offset` is the index of `lines[0]` in the text they come from).
   */
  private splitLines(lines: string[], code: boolean, reserve = 0, offset = 0): Unit[] {
    const budget = Math.max(1, this.options.targetTokens - reserve);
    const units: Unit[] = [];
    let current: string[] = [];
    let currentTokens = 0;
    let first = 0; // index of current[0] in lines
    const flush = () => {
      if (current.length === 0) return;
      const range: [number, number] = [offset + first, offset + first + current.length - 1];
      units.push({ ...this.unit(current.join('\n'), code), sep: code ? undefined : '\n', lines: range });
      current = [];
      currentTokens = 0;
    };
    lines.forEach((line, i) => {
      const lineTokens = this.countUpTo(line, budget) + 1;
      if (current.length && currentTokens + lineTokens > budget) flush();
      if (lineTokens > budget) {
        // A line longer than the budget: prose by words, code in pieces that keep its spacing.
        const at: [number, number] = [offset + i, offset + i];
        const pieces = code
          ? this.cutToFit(line, budget).map((piece) => this.unit(piece, true))
          : this.splitWords(line, budget);
        units.push(...pieces.map((unit) => ({ ...unit, lines: at })));
        return;
      }
      if (current.length === 0) first = i;
      current.push(line);
      currentTokens += lineTokens;
    });
    flush();
    return units;
  }

  /**
   * Long tables are cut between rows, and every piece after the first starts with the header row
   * (and the separator line of a pipe table), so a chunk of rows can be found by its column names.
   * The header counts toward the target; one wider than half the target is cut to its first words.
   */
  private splitTable(text: string): Unit[] {
    const lines = text.split('\n');
    const parts = tableParts(text);
    const header = parts && this.tableHeader(parts.header);
    if (!parts || !header) return this.splitLines(lines, false);
    // When the repeated header differs from the table's own (cut, or a compact separator), the
    // first piece keeps the original lines, with the rows that fit beside them (when not even one
    // row fits, the table is cut between its lines like any text); the others start with the
    // repeated header. `lines` are the table lines each piece holds (a sheet's row range).
    const own = parts.header.join('\n');
    const ownTokens = this.tokens.count(own);
    const original = header.text === own;
    // A line costs its tokens and its line break (see splitLines).
    if (!original && ownTokens + 1 + this.tokens.count(parts.rows[0]) + 1 > this.options.targetTokens) {
      return this.splitLines(lines, false, header.tokens + 1).map((piece, i) =>
        i === 0
          ? { ...piece, table: true }
          : {
              ...this.unit(`${header.text}\n${piece.text}`, false),
              sep: '\n',
              table: true,
              repeatsHeader: true,
              lines: piece.lines,
            },
      );
    }
    let rows = parts.rows;
    let offset = parts.header.length;
    const pieces: Unit[] = [];
    if (!original) {
      const [first] = this.splitLines(rows, false, ownTokens + 1, offset);
      pieces.push({
        ...this.unit(`${own}\n${first.text}`, false),
        sep: '\n',
        table: true,
        lines: first.lines && [0, first.lines[1]],
      });
      const taken = first.text.split('\n').length;
      rows = rows.slice(taken);
      offset += taken;
    }
    for (const piece of rows.length ? this.splitLines(rows, false, header.tokens + 1, offset) : []) {
      pieces.push({
        ...this.unit(`${header.text}\n${piece.text}`, false),
        sep: '\n',
        table: true,
        repeatsHeader: pieces.length > 0,
        lines: piece.lines,
      });
    }
    return pieces;
  }

  private tableHeader(lines: string[]): { text: string; tokens: number } | undefined {
    const max = Math.floor(this.options.targetTokens / 2);
    const text = repeatedHeader(lines);
    const tokens = this.tokens.count(text);
    if (tokens <= max) return { text, tokens };
    if (max < 2) return undefined;
    // The separator line says nothing without the whole header row, so only the row's first words
    // stay: those of its beginning (a token is never longer than a few characters).
    const cut = `${this.splitWords(lines[0].trim().slice(0, max * HEADER_CHARS_PER_TOKEN), max - 1)[0].text} …`;
    const cutTokens = this.tokens.count(cut);
    return cutTokens <= max ? { text: cut, tokens: cutTokens } : undefined;
  }

  /** The count of `text`, or a number over `limit` as soon as it is known to exceed it. */
  private countUpTo(text: string, limit: number): number {
    return this.tokens.countUpTo?.(text, limit) ?? this.tokens.count(text);
  }

  private unit(text: string, code: boolean): Unit {
    return { text, tokens: this.tokens.count(text), code };
  }

  /** Greedy packing with prose overlap between consecutive chunks of one section. */
  private pack(units: Unit[]): Omit<Piece, 'headingPath'>[] {
    const out: Omit<Piece, 'headingPath'>[] = [];
    const emit = () =>
      out.push(describePiece(current, current.length - fresh, this.tokens.count(join(current))));
    let current: Unit[] = [];
    let tokens = 0;
    let fresh = 0; // units in `current` that are not overlap carried from the previous chunk
    for (const unit of units) {
      if (fresh > 0 && (tokens + unit.tokens > this.options.targetTokens || unit.repeatsHeader)) {
        emit();
        current = this.overlap(current);
        tokens = current.reduce((sum, u) => sum + u.tokens, 0);
        fresh = 0;
        if (tokens + unit.tokens > this.options.targetTokens) {
          current = [];
          tokens = 0;
        }
      }
      current.push(unit);
      tokens += unit.tokens;
      fresh++;
    }
    if (fresh > 0) emit();
    return out;
  }

  private overlap(previous: Unit[]): Unit[] {
    if (this.options.overlapTokens === 0) return [];
    const tail: Unit[] = [];
    let tokens = 0;
    for (let i = previous.length - 1; i >= 0; i--) {
      const unit = previous[i];
      if (unit.code || unit.table || tokens + unit.tokens > this.options.overlapTokens) break;
      tail.unshift(unit);
      tokens += unit.tokens;
    }
    // Whole prose units too large for the overlap budget contribute their last sentences instead.
    const last = previous[previous.length - 1];
    if (tail.length === 0 && last && !last.code && !last.table) {
      const sentences = this.splitProse(last.text);
      for (let i = sentences.length - 1; i >= 0; i--) {
        if (tokens + sentences[i].tokens > this.options.overlapTokens) break;
        tail.unshift(sentences[i]);
        tokens += sentences[i].tokens;
      }
      if (tail.length === sentences.length) return [];
    }
    return tail;
  }

  /**
   * A tiny piece merges with the next one when both fit the target together and the next is in
   * the same section or a subsection of it (a heading with one line of intro, then its first
   * subsection).
   */
  private mergeTiny(pieces: Piece[]): Piece[] {
    const min = this.options.minTokens ?? 0;
    if (min === 0) return pieces;
    const out: Piece[] = [];
    for (const piece of pieces) {
      const previous = out[out.length - 1];
      const tiny = piece.tokens < min || (previous && previous.tokens < min);
      // Only into the same section or from a section into its first subsection: merging siblings
      // would cost both their headings in the citation.
      const merged =
        previous &&
        tiny &&
        isPrefix(previous.headingPath, piece.headingPath) &&
        previous.tokens + piece.tokens <= this.options.targetTokens
          ? this.merge(previous, piece)
          : undefined;
      // The merged chunk also holds the second piece's own headings: it must fit with them.
      if (merged && merged.tokens <= this.options.targetTokens) out[out.length - 1] = merged;
      else out.push(piece);
    }
    return out;
  }

  /** The merged piece keeps the shared heading path; the second piece's own headings become a line. */
  private merge(a: Piece, b: Piece): Piece {
    let shared = 0;
    while (shared < a.headingPath.length && a.headingPath[shared] === b.headingPath[shared]) shared++;
    const ownHeadings = b.headingPath.slice(shared);
    const text = [a.text, ownHeadings.length ? ownHeadings.join(' › ') : '', b.text]
      .filter(Boolean)
      .join('\n\n');
    const pages = [a.page, a.pageEnd, b.page, b.pageEnd].filter((p): p is number => p !== undefined);
    const rows = [a.rowStart, a.rowEnd, b.rowStart, b.rowEnd].filter((r): r is number => r !== undefined);
    return {
      headingPath: a.headingPath.slice(0, shared),
      text,
      tokens: this.tokens.count(text),
      anchor: a.anchor ?? b.anchor,
      page: pages.length ? Math.min(...pages) : undefined,
      pageEnd: pages.length ? Math.max(...pages) : undefined,
      chapter: a.chapter ?? b.chapter,
      sheet: a.sheet ?? b.sheet,
      rowStart: rows.length ? Math.min(...rows) : undefined,
      rowEnd: rows.length ? Math.max(...rows) : undefined,
      codeLanguages: [...new Set([...a.codeLanguages, ...b.codeLanguages])],
      ocrConfidences: [...a.ocrConfidences, ...b.ocrConfidences],
    };
  }
}

/**
 * A chunk links to its first own (non-overlap) unit that has an anchor: one that starts with an
 * anchor-less block (a Notion database row's property list) still links to the block after it
 * rather than only to the page. Its pages cover all its text.
 */
function describePiece(units: Unit[], firstOwn: number, tokens: number): Omit<Piece, 'headingPath'> {
  const own = units[firstOwn];
  const anchored = units.slice(firstOwn).find((u) => u.anchor !== undefined);
  const pages = units.flatMap((u) => (u.page === undefined ? [] : [u.page, u.pageEnd ?? u.page]));
  const rows = units.flatMap((u) => u.rows ?? []);
  const codeLanguages = [
    ...new Set(units.flatMap((u) => (u.code && u.codeLanguage ? [u.codeLanguage] : []))),
  ];
  return {
    text: join(units),
    tokens,
    anchor: anchored?.anchor,
    page: pages.length ? Math.min(...pages) : undefined,
    pageEnd: pages.length ? Math.max(...pages) : undefined,
    chapter: own?.chapter,
    sheet: own?.sheet,
    rowStart: rows.length ? Math.min(...rows) : undefined,
    rowEnd: rows.length ? Math.max(...rows) : undefined,
    codeLanguages,
    ocrConfidences: units.flatMap((u) => (u.ocrConfidence === undefined ? [] : [u.ocrConfidence])),
  };
}

/** Characters of a table's header row read to find its first words when it is cut (see tableHeader). */
const HEADER_CHARS_PER_TOKEN = 64;

/** Characters in the code point at `index`: 2 for a surrogate pair. */
function codePointLength(text: string, index: number): number {
  return (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The sheet rows a unit's lines hold: `rowNumbers` numbers the last lines of a block of
 * `lineCount` lines (a table's rows under its header); lines of the header have none.
 */
function rowRange(
  [first, last]: [number, number],
  lineCount: number,
  rowNumbers: number[] | undefined,
): [number, number] | undefined {
  if (!rowNumbers?.length) return undefined;
  const base = lineCount - rowNumbers.length;
  const from = Math.max(first - base, 0);
  const to = Math.min(last - base, rowNumbers.length - 1);
  return to >= from ? [rowNumbers[from], rowNumbers[to]] : undefined;
}

function join(units: Unit[]): string {
  return units.map((u, i) => (i === 0 ? u.text : `${u.sep ?? '\n\n'}${u.text}`)).join('');
}

function sections(blocks: ParsedBlock[]): Section[] {
  const out: Section[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (last && samePath(last.headingPath, block.headingPath)) last.blocks.push(block);
    else out.push({ headingPath: block.headingPath, blocks: [block] });
  }
  return out;
}

/** `parent` equals `path` or is one of its ancestors. */
function isPrefix(parent: string[], path: string[]): boolean {
  return parent.length <= path.length && parent.every((part, i) => part === path[i]);
}

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/**
 * The document's text as chunks carry it: parsers pass on whatever a file holds (a lone surrogate
 * from `&#xD800;`, a NUL), but embedding servers and the index take only well-formed text.
 */
function wellFormedDocument(doc: ParsedDocument): ParsedDocument {
  return {
    ...doc,
    title: wellFormedText(doc.title),
    blocks: doc.blocks.map((block) => ({
      ...block,
      text: wellFormedText(block.text),
      headingPath: block.headingPath.map(wellFormedText),
    })),
  };
}
