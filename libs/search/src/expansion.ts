import type { SearchChunk, SearchHit } from '@trove/domain';
import type { StoredChunk } from './chunk-index.ports';

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
