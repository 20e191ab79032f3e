import type { Client } from '@elastic/elasticsearch';
import type { TroveStack } from './stack';

/** What {@link checkEachDocumentOnce} found in a project. */
export interface EachDocumentOnce {
  /** Documents in the catalog (every page of `documents`). */
  documents: number;
  /** Chunks the catalog's documents say they have (the sum of their chunkCount). */
  chunks: number;
  /** Chunks of the project in the index. */
  indexed: number;
  /**
   * Everything that breaks "each document READY once, each chunk indexed once": a document not
   * READY, a file name twice, a document whose indexed chunks differ from its count, a chunk
   * position twice, a chunk of no document. The first few of each kind, then how many more.
   */
  problems: string[];
}

interface DocumentNode {
  id: string;
  fileName: string;
  status: string;
  chunkCount: number;
}

interface DocumentPage {
  nodes: DocumentNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const SHOWN = 5;

/** Collects problems by kind, keeping the first few of each (a 2,000-document failure stays readable). */
class Problems {
  private readonly kinds = new Map<string, { shown: string[]; more: number }>();

  add(kind: string, detail: string): void {
    let entry = this.kinds.get(kind);
    if (!entry) this.kinds.set(kind, (entry = { shown: [], more: 0 }));
    if (entry.shown.length < SHOWN) entry.shown.push(detail);
    else entry.more++;
  }

  list(): string[] {
    return [...this.kinds].map(
      ([kind, { shown, more }]) => `${kind}: ${shown.join(', ')}${more ? ` and ${more} more` : ''}`,
    );
  }
}

/** Every document of a project, all pages of `documents`. */
async function allDocuments(stack: TroveStack, projectId: string): Promise<DocumentNode[]> {
  const nodes: DocumentNode[] = [];
  let after: string | null = null;
  for (;;) {
    const { documents }: { documents: DocumentPage } = await stack.query<{ documents: DocumentPage }>(
      `query($p: ID!, $after: String) { documents(projectId: $p, first: 500, after: $after) {
         nodes { id fileName status chunkCount } pageInfo { hasNextPage endCursor } } }`,
      { p: projectId, after },
    );
    nodes.push(...documents.nodes);
    if (!documents.pageInfo.hasNextPage) return nodes;
    after = documents.pageInfo.endCursor;
  }
}

/**
 * After a run that was interrupted (a worker killed mid-batch, a Temporal service or an
 * Elasticsearch node lost): each document of the project is READY, no file was made into two
 * documents, and the index holds exactly each document's chunks, one per (document, position), so
 * no chunk of an interrupted attempt is left beside its redo. Reads the catalog through the api and
 * every chunk of the project from the index (scrolled, whatever their number).
 */
export async function checkEachDocumentOnce(
  stack: TroveStack,
  es: Client,
  projectId: string,
): Promise<EachDocumentOnce> {
  const problems = new Problems();
  const documents = await allDocuments(stack, projectId);
  const byId = new Map(documents.map((d) => [d.id, d]));
  const names = new Set<string>();
  for (const d of documents) {
    if (d.status !== 'READY') problems.add('not READY', `${d.fileName} ${d.status}`);
    if (names.has(d.fileName)) problems.add('file name twice', d.fileName);
    names.add(d.fileName);
  }

  const index = `${stack.name}-chunks`;
  await es.indices.refresh({ index });
  const stored = new Map<string, number>();
  const positions = new Set<string>();
  let indexed = 0;
  for await (const hits of es.helpers.scrollDocuments<{ documentId: string; position: number }>({
    index,
    size: 5_000,
    query: { term: { projectId } },
    _source: ['documentId', 'position'],
  })) {
    indexed++;
    const { documentId, position } = hits;
    stored.set(documentId, (stored.get(documentId) ?? 0) + 1);
    const key = `${documentId}/${position}`;
    if (positions.has(key))
      problems.add('chunk indexed twice', `${byId.get(documentId)?.fileName} #${position}`);
    positions.add(key);
    if (!byId.has(documentId)) problems.add('chunk of no document', key);
  }
  for (const d of documents) {
    const count = stored.get(d.id) ?? 0;
    if (count !== d.chunkCount)
      problems.add('indexed chunks ≠ chunkCount', `${d.fileName} ${count}/${d.chunkCount}`);
  }
  return {
    documents: documents.length,
    chunks: documents.reduce((n, d) => n + d.chunkCount, 0),
    indexed,
    problems: problems.list(),
  };
}
