/**
 * What the quick start's demos check, so `npm run quickstart` (and CI) fails when the demo does
 * not work: each function returns the problems it finds, as messages that say which check failed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BlockInput, Workspace } from '@trove/notion-emulator';
import { parse as parseYaml } from 'yaml';

/** Collects failed checks and ends the demo with all of them (exit code 1) instead of the first. */
export class DemoChecks {
  private readonly failures: string[] = [];

  constructor(private readonly demo: string) {}

  add(problems: string[]): void {
    this.failures.push(...problems);
  }

  /** Prints every failed check and sets a non-zero exit code; true when all passed. */
  report(): boolean {
    if (!this.failures.length) {
      console.log(`  ✓ ${this.demo}: every check passed`);
      return true;
    }
    console.error(`\n${this.demo}: ${this.failures.length} check(s) failed:`);
    for (const failure of this.failures) console.error(`  ✗ ${failure}`);
    process.exitCode = 1;
    return false;
  }
}

export interface SampleDocument {
  fileName: string;
  status: string;
  chunkCount: number;
  error?: { message: string } | null;
}

/** Every sample file is a READY document with at least one chunk. */
export function sampleDocumentProblems(sampleFiles: string[], documents: SampleDocument[]): string[] {
  return sampleFiles.flatMap((fileName) => {
    const document = documents.find((d) => d.fileName === fileName);
    if (!document) return [`sample ${fileName}: no document in the project`];
    if (document.status !== 'READY') {
      const why = document.error?.message ? `: ${document.error.message}` : '';
      return [`sample ${fileName}: ${document.status}, not READY${why}`];
    }
    return document.chunkCount > 0 ? [] : [`sample ${fileName}: READY with no chunks`];
  });
}

export interface CitedHit {
  title: string;
  citationUrl: string | null;
}

/** A demo search finds something, and every hit links to where it was found. */
export function searchProblems(query: string, hits: CitedHit[], expected = 'a hit'): string[] {
  if (!hits.length) return [`search "${query}": no hit (expected ${expected})`];
  return hits.flatMap((hit, i) =>
    hit.citationUrl ? [] : [`search "${query}": hit ${i + 1} (${hit.title}) has no citation URL`],
  );
}

/**
 * The document a demo query must find: how a hit or citation is recognised as it (its document id,
 * a citation URL's prefix, a title), and its name for the message.
 */
export interface ExpectedDocument<T> {
  name: string;
  is: (hit: T) => boolean;
}

/** How far down a demo search's expected document may rank: a wrong page first fails the demo. */
export const DEMO_TOP = 3;

/** The expected document is among the search's first `DEMO_TOP` hits (HYBRID always returns neighbours). */
export function rankProblems<T extends { title: string }>(
  query: string,
  hits: T[],
  expected: ExpectedDocument<T>,
): string[] {
  const top = hits.slice(0, DEMO_TOP);
  if (top.some(expected.is)) return [];
  const got = top.map((hit, i) => `${i + 1}. ${hit.title}`).join(', ') || 'no hit';
  return [`search "${query}": ${expected.name} is not in the top ${DEMO_TOP} (${got})`];
}

export interface DemoCitation {
  marker: number;
  title: string;
  citationUrl: string | null;
  documentId?: string;
}

/**
 * The answer cites at least one passage, each citation with a URL, the answer uses a marker, and
 * (when given) one of its citations is the expected document.
 */
export function askProblems(
  question: string,
  ask: { answer: string; citations: DemoCitation[] },
  expected?: ExpectedDocument<DemoCitation>,
): string[] {
  if (!ask.citations.length) return [`ask "${question}": the answer has no citation`];
  const problems = ask.citations.flatMap((c) =>
    c.citationUrl ? [] : [`ask "${question}": citation [${c.marker}] (${c.title}) has no URL`],
  );
  if (!ask.citations.some((c) => ask.answer.includes(`[${c.marker}]`))) {
    problems.push(`ask "${question}": the answer uses none of its citation markers`);
  }
  if (expected && !ask.citations.some(expected.is)) {
    problems.push(
      `ask "${question}": no citation of ${expected.name} (cited: ${ask.citations.map((c) => c.title).join(', ')})`,
    );
  }
  return problems;
}

export interface SyncRunResult {
  status: string;
  error: { message: string } | null;
  progress: {
    pagesSeen: number;
    pagesIngested: number;
    pagesUnchanged: number;
    pagesFailed: number;
    pagesSkipped?: number;
  };
}

/**
 * The sync COMPLETED, saw exactly the expected pages (or, not knowing them, at least one), and each
 * was ingested or unchanged (a second quick start finds the pages unchanged). `skipped`, when given,
 * is the expected number of pages the source refers to but cannot read.
 */
export function syncProblems(
  label: string,
  run: SyncRunResult,
  expected: { pages?: number; skipped?: number },
): string[] {
  if (run.status !== 'COMPLETED') {
    return [`${label} sync: ${run.status}, not COMPLETED${run.error ? `: ${run.error.message}` : ''}`];
  }
  const p = run.progress;
  const problems: string[] = [];
  if (expected.pages === undefined ? p.pagesSeen === 0 : p.pagesSeen !== expected.pages) {
    problems.push(`${label} sync: saw ${p.pagesSeen} pages, expected ${expected.pages ?? 'some'}`);
  }
  if (p.pagesFailed) problems.push(`${label} sync: ${p.pagesFailed} pages failed`);
  if (p.pagesIngested + p.pagesUnchanged !== p.pagesSeen) {
    problems.push(
      `${label} sync: ${p.pagesIngested} ingested + ${p.pagesUnchanged} unchanged of ${p.pagesSeen} seen`,
    );
  }
  if (expected.skipped !== undefined && p.pagesSkipped !== expected.skipped) {
    problems.push(`${label} sync: skipped ${p.pagesSkipped} pages, expected ${expected.skipped}`);
  }
  return problems;
}

/** The pages of a MkDocs project: the Markdown files under its docs_dir, as `mkdocs build` publishes them. */
export function mkdocsPages(siteDir: string): string[] {
  const config = parseYaml(readFileSync(join(siteDir, 'mkdocs.yml'), 'utf8'), {
    // mkdocs.yml may hold !!python/… and !ENV tags; only docs_dir matters here.
    customTags: [],
    logLevel: 'silent',
  }) as { docs_dir?: string };
  const docsDir = join(siteDir, config.docs_dir ?? 'docs');
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => relative(docsDir, join(docsDir, f)))
    .sort();
}

const compact = (id: string) => id.replace(/-/g, '').toLowerCase();

/**
 * What a sync of `rootPageId` in an emulated workspace reaches, the way the Notion connector walks
 * it: sub-pages, linked pages, databases' rows and synced blocks' content. `pages` are readable
 * (shared, not in the trash); `skipped` are linked but not shared with the integration.
 */
export function notionSubtree(workspace: Workspace, rootPageId: string): { pages: number; skipped: number } {
  const pages = new Map(workspace.pages.map((p) => [compact(p.id), p]));
  const blocks = new Map<string, BlockInput>();
  const placed = new Set<string>();
  const index = (list: BlockInput[]) => {
    for (const block of list) {
      if (block.id) blocks.set(compact(block.id), block);
      if (block.type === 'child_page') placed.add(compact(block.pageId));
      if (block.type === 'child_database') placed.add(compact(block.databaseId));
      index(childBlocks(block));
    }
  };
  for (const page of workspace.pages) index(page.blocks ?? []);

  const seen = new Set<string>();
  const result = { pages: 0, skipped: 0 };
  const visitPage = (id: string) => {
    const key = compact(id);
    if (seen.has(key)) return;
    seen.add(key);
    const page = pages.get(key);
    if (!page || page.inTrash) return;
    if (page.shared === false) {
      result.skipped++;
      return;
    }
    result.pages++;
    scan(page.blocks ?? []);
    // Sub-pages and databases no block places are listed at the end of their parent page.
    for (const child of workspace.pages) {
      if (child.parent.type === 'page' && compact(child.parent.id) === key && !placed.has(compact(child.id)))
        visitPage(child.id);
    }
    for (const database of workspace.databases) {
      const parent = database.parent;
      if (parent.type === 'page' && compact(parent.id) === key && !placed.has(compact(database.id)))
        visitDatabase(database.id);
    }
  };
  const visitDatabase = (id: string) => {
    const database = workspace.databases.find((d) => compact(d.id) === compact(id));
    if (!database || database.inTrash || database.shared === false) return;
    const sources = new Set(database.dataSources.map((ds) => compact(ds.id)));
    for (const row of workspace.pages) {
      if (row.parent.type === 'data_source' && sources.has(compact(row.parent.id))) visitPage(row.id);
    }
  };
  const scan = (list: BlockInput[]) => {
    for (const block of list) {
      if (block.type === 'child_page') visitPage(block.pageId);
      else if (block.type === 'child_database') visitDatabase(block.databaseId);
      else if (block.type === 'link_to_page') {
        if ('pageId' in block) visitPage(block.pageId);
        else visitDatabase(block.databaseId);
      } else if (block.type === 'synced_block' && 'syncedFrom' in block) {
        const original = blocks.get(compact(block.syncedFrom));
        if (original) scan(childBlocks(original));
      } else scan(childBlocks(block));
    }
  };
  visitPage(rootPageId);
  return result;
}

function childBlocks(block: BlockInput): BlockInput[] {
  if (block.type === 'column_list') return block.columns.flatMap((c) => c.children);
  return 'children' in block && Array.isArray(block.children) ? block.children : [];
}
