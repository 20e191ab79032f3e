import type { estypes } from '@elastic/elasticsearch';
import type { SearchChunk, SearchHit } from '@trove/domain';
import type { StoredChunk } from './chunk-index';

/**
 * One query for the ±`radius` neighbours of every hit: a `should` per document over the union of
 * its hits' position windows. Returns undefined when there is nothing to fetch.
 */
export function neighbourQuery(
  projectId: string,
  hits: Pick<SearchHit, 'documentId' | 'position'>[],
  radius: number,
): { query: estypes.QueryDslQueryContainer; size: number } | undefined {
  if (radius < 1 || hits.length === 0) return undefined;
  const windows = new Map<string, Set<number>>();
  for (const hit of hits) {
    const positions = windows.get(hit.documentId) ?? new Set<number>();
    for (let p = Math.max(0, hit.position - radius); p <= hit.position + radius; p++) {
      if (p !== hit.position) positions.add(p);
    }
    windows.set(hit.documentId, positions);
  }
  const should = [...windows].map(([documentId, positions]) => ({
    bool: { filter: [{ term: { documentId } }, { terms: { position: [...positions] } }] },
  }));
  const size = [...windows.values()].reduce((sum, positions) => sum + positions.size, 0);
  return {
    query: { bool: { filter: [{ term: { projectId } }], should, minimum_should_match: 1 } },
    size,
  };
}

/** Gives each hit its neighbours within `radius`, in position order, without the hit itself. */
export function attachContext(hits: SearchHit[], neighbours: StoredChunk[], radius: number): SearchHit[] {
  const byDocument = new Map<string, StoredChunk[]>();
  for (const chunk of neighbours) {
    byDocument.set(chunk.documentId, [...(byDocument.get(chunk.documentId) ?? []), chunk]);
  }
  for (const list of byDocument.values()) list.sort((a, b) => a.position - b.position);
  return hits.map((hit) => ({
    ...hit,
    context: (byDocument.get(hit.documentId) ?? [])
      .filter((c) => c.position !== hit.position && Math.abs(c.position - hit.position) <= radius)
      .map(toSearchChunk),
  }));
}

/** The fields search shows of a stored chunk. */
export function toSearchChunk(source: StoredChunk): SearchChunk {
  return {
    chunkId: source.chunkId,
    documentId: source.documentId,
    projectId: source.projectId,
    title: source.title,
    headingPath: source.headingPath,
    text: source.text,
    position: source.position,
    citation: source.citation,
    citationUrl: source.citationUrl,
    anchor: source.anchor,
    page: source.page,
    pageEnd: source.pageEnd,
    chapter: source.chapter,
  };
}
