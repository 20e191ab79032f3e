import type { TextLine } from './layout';

/** The parts of a pdfjs document the outline needs. */
export interface OutlineSource {
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(id: string): Promise<unknown[] | null>;
  getPageIndex(ref: { num: number; gen: number }): Promise<number>;
}

export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** An outline entry resolved to where its section starts. */
export interface OutlineTarget {
  /** Titles from the outline root down to this entry. */
  path: string[];
  /** 0-based page index. */
  pageIndex: number;
  /** The destination's point in PDF user space (y upwards), when it names one. */
  left?: number;
  top?: number;
}

/** Outlines of real books stay far below this; it bounds the worker round trips for odd files. */
const MAX_ENTRIES = 5000;

export function cleanTitle(title: unknown): string {
  return typeof title === 'string'
    ? title
        // eslint-disable-next-line no-control-regex -- titles may hold control characters; drop them
        .replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

/**
 * Resolves the document outline (bookmarks) to page positions, in document order. Named
 * destinations go through `getDestination`, page references through `getPageIndex`; entries
 * whose destination does not resolve keep only their place in their children's paths.
 */
export async function resolveOutline(doc: OutlineSource): Promise<OutlineTarget[]> {
  const roots = await doc.getOutline();
  if (!roots?.length) return [];
  const targets: OutlineTarget[] = [];
  let visited = 0;
  const walk = async (nodes: OutlineNode[], parents: string[]) => {
    for (const node of nodes) {
      if (++visited > MAX_ENTRIES) return;
      const title = cleanTitle(node.title);
      const path = title ? [...parents, title] : parents;
      const target = title ? await resolveDestination(doc, node.dest).catch(() => undefined) : undefined;
      if (target) targets.push({ path, ...target });
      if (node.items?.length) await walk(node.items, path);
    }
  };
  await walk(roots, []);
  // Stable sort: entries on one page keep their outline order when they have no position.
  return targets
    .map((target, order) => ({ target, order }))
    .sort(
      (a, b) =>
        a.target.pageIndex - b.target.pageIndex ||
        (b.target.top ?? Infinity) - (a.target.top ?? Infinity) ||
        a.order - b.order,
    )
    .map(({ target }) => target);
}

async function resolveDestination(
  doc: OutlineSource,
  dest: OutlineNode['dest'],
): Promise<Omit<OutlineTarget, 'path'> | undefined> {
  const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
  if (!Array.isArray(explicit) || explicit.length < 2) return undefined;
  const [ref, fit, ...args] = explicit;
  let pageIndex: number;
  if (typeof ref === 'number' && Number.isInteger(ref)) pageIndex = ref;
  else if (ref && typeof ref === 'object' && 'num' in ref) {
    pageIndex = await doc.getPageIndex(ref as { num: number; gen: number });
  } else return undefined;
  const number = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const kind = fit && typeof fit === 'object' && 'name' in fit ? String(fit.name) : '';
  switch (kind) {
    case 'XYZ':
      return { pageIndex, left: number(args[0]), top: number(args[1]) };
    case 'FitH':
    case 'FitBH':
      return { pageIndex, top: number(args[0]) };
    case 'FitR':
      return { pageIndex, left: number(args[0]), top: number(args[3]) };
    default:
      return { pageIndex };
  }
}

/** Lower-case letters and digits only, for comparing a bookmark title with a line of text. */
function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A title with and without its section number (`2.1`, `IV`, `A`, `Chapter 3`). */
function variants(text: string): string[] {
  const plain = normalise(text);
  const unnumbered = plain.replace(
    /^(?:(?:chapter|kapitel|chapitre|part|teil|section)\s+)?(?:\d+(?: \d+)*|[ivxlc]+|[a-z])\s+/,
    '',
  );
  return unnumbered && unnumbered !== plain ? [plain, unnumbered] : [plain];
}

function sameTitle(a: string, b: string): boolean {
  const va = variants(a);
  return variants(b).some((v) => v.length > 0 && va.includes(v));
}

/** Where an outline section starts among a page's lines, and which lines print its title. */
export interface SectionStart {
  /** Index of the first line of the section in reading order (`lines.length`: after the page). */
  before: number;
  path: string[];
  /** Lines that print the entry's title: they become the heading path, not text. */
  titleLines: number[];
}

/**
 * Places each outline target of a page among the page's lines. The title printed in the text is
 * looked for first (at or below the destination's point, in the column holding it); otherwise the
 * section starts at the first line below the point, or at the top of the page without a point.
 * `point` is the destination in the page's reading frame (y downwards).
 */
export function placeSections(
  lines: readonly TextLine[],
  targets: { path: string[]; point?: { x?: number; y: number } }[],
): SectionStart[] {
  const starts: SectionStart[] = [];
  const claimed = new Set<number>();
  for (const { path, point } of targets) {
    const title = path[path.length - 1];
    const below = (line: TextLine) => !point || line.y >= point.y - line.size * 0.5;
    const inColumn = (line: TextLine) =>
      point?.x === undefined || (point.x >= line.flowX0 - 10 && point.x <= line.flowX1 + 10);
    const titleLines = findTitle(lines, title, (line, i) => !claimed.has(i) && below(line) && inColumn(line));
    if (titleLines.length) {
      for (const i of titleLines) claimed.add(i);
      starts.push({ before: titleLines[0], path, titleLines });
      continue;
    }
    let before = lines.length;
    if (!point) before = 0;
    else {
      const candidates = lines.map((line, i) => ({ line, i })).filter(({ line }) => below(line));
      const column = candidates.filter(({ line }) => inColumn(line));
      const first = (column.length ? column : candidates)[0];
      if (first) before = first.i;
    }
    starts.push({ before, path, titleLines: [] });
  }
  return starts.sort((a, b) => a.before - b.before);
}

function findTitle(
  lines: readonly TextLine[],
  title: string,
  allowed: (line: TextLine, i: number) => boolean,
) {
  const wanted = normalise(title);
  if (!wanted) return [];
  for (let i = 0; i < lines.length; i++) {
    if (!allowed(lines[i], i)) continue;
    if (sameTitle(lines[i].text, title)) return [i];
    // A long title wraps over two or three lines of one column.
    let text = lines[i].text;
    for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
      if (lines[j].flow !== lines[i].flow) break;
      text = `${text} ${lines[j].text}`;
      if (sameTitle(text, title)) return Array.from({ length: j - i + 1 }, (_, k) => i + k);
      if (!variants(title).some((v) => v.startsWith(normalise(text)))) break;
    }
  }
  return [];
}
