import type { Citation, SearchChunk, SearchHit } from '@trove/domain';

/** Neighbouring chunks of one document merged into one piece of text, in reading order. */
export interface Passage {
  /** The merged chunks, in position order. */
  chunkIds: string[];
  /** Those of them that were hits (the rest came from context expansion). */
  hitChunkIds: string[];
  positionStart: number;
  positionEnd: number;
  text: string;
  /** The first chunk's heading path. */
  headingPath: string[];
  /** The best score among its hits. */
  score: number;
  /** PDF: the first page of the first chunk and the last page of the last one. */
  page?: number;
  pageEnd?: number;
  /** Every distinct anchor of its chunks, in reading order. */
  anchors: string[];
  /** Where the passage starts. */
  citation?: Citation;
  citationUrl?: string;
}

/** A document's results: its hits in rank order and the passages they form, in reading order. */
export interface DocumentGroup {
  documentId: string;
  title: string;
  /** The best hit's score: groups are ordered by it, as their best hits were ranked. */
  score: number;
  hits: SearchHit[];
  passages: Passage[];
}

/** Keeps at most `max` hits per document, in the given order (the ones dropped are the lower ranked). */
export function capPerDocument<T extends { documentId: string }>(hits: T[], max: number): T[] {
  const seen = new Map<string, number>();
  return hits.filter((hit) => {
    const count = seen.get(hit.documentId) ?? 0;
    seen.set(hit.documentId, count + 1);
    return count < max;
  });
}

/** The shortest overlap taken for a repeat: below this, a shared word or two is a coincidence. */
const MIN_OVERLAP_CHARS = 16;

/**
 * Joins two consecutive chunks' texts. The chunker repeats the last sentences of a chunk at the
 * start of the next (overlap), so the longest suffix of `a` that starts `b` is written once.
 */
export function joinChunkTexts(a: string, b: string): string {
  const probe = b.slice(0, MIN_OVERLAP_CHARS);
  if (probe.length === MIN_OVERLAP_CHARS) {
    const from = Math.max(0, a.length - b.length);
    for (let at = a.indexOf(probe, from); at !== -1; at = a.indexOf(probe, at + 1)) {
      if (b.startsWith(a.slice(at))) return a.slice(0, at) + b;
    }
  }
  return `${a}\n\n${b}`;
}

/**
 * Groups hits by document, groups ordered by their best hit's rank. Within a group, the hits and
 * their context chunks (see context expansion) at consecutive positions merge into one passage;
 * passages are listed in reading order.
 */
export function groupByDocument(hits: SearchHit[]): DocumentGroup[] {
  const groups = new Map<string, DocumentGroup>();
  const chunks = new Map<string, Map<number, { chunk: SearchChunk; score?: number }>>();
  for (const hit of hits) {
    let group = groups.get(hit.documentId);
    if (!group) {
      group = { documentId: hit.documentId, title: hit.title, score: hit.score, hits: [], passages: [] };
      groups.set(hit.documentId, group);
      chunks.set(hit.documentId, new Map());
    }
    group.hits.push(hit);
    const byPosition = chunks.get(hit.documentId)!;
    const known = byPosition.get(hit.position);
    byPosition.set(hit.position, { chunk: hit, score: Math.max(hit.score, known?.score ?? -Infinity) });
    for (const neighbour of hit.context ?? []) {
      if (!byPosition.has(neighbour.position)) byPosition.set(neighbour.position, { chunk: neighbour });
    }
  }
  for (const group of groups.values()) {
    const ordered = [...chunks.get(group.documentId)!.values()].sort(
      (a, b) => a.chunk.position - b.chunk.position,
    );
    let run: typeof ordered = [];
    for (const entry of ordered) {
      if (run.length > 0 && entry.chunk.position !== run.at(-1)!.chunk.position + 1) {
        group.passages.push(passage(run));
        run = [];
      }
      run.push(entry);
    }
    if (run.length > 0) group.passages.push(passage(run));
    // A run of context chunks only cannot happen: context is contiguous with its hit.
  }
  return [...groups.values()];
}

function passage(run: { chunk: SearchChunk; score?: number }[]): Passage {
  const first = run[0].chunk;
  const last = run.at(-1)!.chunk;
  const pages = run.map((e) => e.chunk.pageEnd ?? e.chunk.page).filter((p): p is number => p !== undefined);
  return {
    chunkIds: run.map((e) => e.chunk.chunkId),
    hitChunkIds: run.filter((e) => e.score !== undefined).map((e) => e.chunk.chunkId),
    positionStart: first.position,
    positionEnd: last.position,
    text: run.map((e) => e.chunk.text).reduce(joinChunkTexts),
    headingPath: first.headingPath,
    score: Math.max(...run.map((e) => e.score ?? Number.NEGATIVE_INFINITY)),
    ...(first.page !== undefined ? { page: first.page } : {}),
    ...(pages.length ? { pageEnd: Math.max(...pages) } : {}),
    anchors: [...new Set(run.map((e) => e.chunk.anchor).filter((a): a is string => !!a))],
    citation: first.citation,
    citationUrl: first.citationUrl,
  };
}
