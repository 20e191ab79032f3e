import { Client, ClusterConnectionPool, errors } from '@elastic/elasticsearch';
import { TroveError, TroveErrorCode } from '@trove/domain';

/**
 * A client of one node, or of a cluster's nodes given as comma-separated URLs (TROVE_ES_URL).
 * Retries belong to the caller (Temporal activities): with one node a request fails fast when the
 * node is down. With several, a request that finds its node down (refused connection, 502-504) is
 * sent to the next node, up to one try per node, and the dead node is left out until it answers a
 * ping. When every node has failed recently, all of them are tried again.
 */
export function createElasticsearchClient(url: string): Client {
  const nodes = url
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean);
  if (nodes.length === 1) return new Client({ node: nodes[0], maxRetries: 0, requestTimeout: 30_000 });
  return new Client({
    node: nodes,
    maxRetries: nodes.length - 1,
    requestTimeout: 30_000,
    // Not the default weighted pool: after a few failures it finds no node at all although all are
    // up again (NoLivingConnectionsError, elastic/elasticsearch-js#1714). This one skips a dead node
    // until a ping finds it back, and uses every node when all look dead.
    ConnectionPool: ClusterConnectionPool,
  });
}

/**
 * Index settings for a replica count (TROVE_ES_REPLICAS): a number is fixed, a range such as 0-1
 * follows the number of data nodes (Elasticsearch's auto_expand_replicas).
 */
export function replicaSettings(replicas: string): {
  auto_expand_replicas: string;
  number_of_replicas?: number;
} {
  if (replicas.includes('-')) return { auto_expand_replicas: replicas };
  return { auto_expand_replicas: 'false', number_of_replicas: Number(replicas) };
}

/** The chunk index's replicas unless configured: one copy on another node once there are two. */
export const DEFAULT_REPLICAS = '0-1';

/** Index and alias names under one prefix, so tests and tenants can share a cluster. */
export class IndexNames {
  constructor(readonly prefix: string) {}

  /** The alias every chunk read and write goes through. */
  get chunks(): string {
    return `${this.prefix}-chunks`;
  }

  /**
   * The concrete index for a mapping version and vector size: the first generation's name, and
   * with a suffix a later generation's (an embedding model change builds one beside the first).
   */
  chunksIndex(mappingVersion: number, dimensions: number, suffix?: string): string {
    return `${this.prefix}-chunks-v${mappingVersion}-d${dimensions}${suffix ? `-${suffix}` : ''}`;
  }

  /**
   * Every generation's concrete index: deletions go to all of them, so a chunk removed while a
   * rebuild runs is removed from the index being built too.
   */
  get allChunkIndices(): string {
    return `${this.prefix}-chunks-v*`;
  }
}

/** Maps an Elasticsearch client error to a TroveError: unreachable/overloaded is transient. */
export function elasticsearchError(error: unknown, action: string): TroveError {
  if (error instanceof TroveError) return error;
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.TimeoutError
  ) {
    return new TroveError(TroveErrorCode.ServiceUnavailable, `Elasticsearch is unreachable while ${action}`, {
      cause: error,
    });
  }
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 500;
    const transient = status === 429 || status >= 500;
    const reason =
      (error.body as { error?: { reason?: string } } | undefined)?.error?.reason ?? error.message;
    return new TroveError(
      transient ? TroveErrorCode.ServiceUnavailable : TroveErrorCode.IndexFailed,
      `Elasticsearch answered ${status} while ${action}: ${reason}`,
      { permanent: !transient, cause: error },
    );
  }
  return new TroveError(TroveErrorCode.Internal, `${action} failed: ${(error as Error).message}`, {
    cause: error,
  });
}

export async function isNotFound(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise;
    return false;
  } catch (error) {
    if (error instanceof errors.ResponseError && error.statusCode === 404) return true;
    throw error;
  }
}

/**
 * Delete-by-query by hand: the integ-test distribution has no reindex module (and so no
 * _delete_by_query). Refreshes, pages through matching ids and bulk-deletes them until none are
 * left. `index` may be a name, an alias or a pattern (each hit is deleted from the index it was
 * found in); returns how many distinct ids were deleted.
 */
export async function deleteMatching(es: Client, index: string, query: object): Promise<number> {
  const deleted = new Set<string>();
  try {
    return await deleteRefreshing(es, index, query, deleted);
  } catch (error) {
    throw elasticsearchError(error, `deleting from ${index}`);
  }
}

/**
 * As `deleteMatching`, but without forcing a refresh first (each forced refresh is a new segment
 * to merge): for writers whose earlier writes of the matching documents are visible already (each
 * ended with a refresh or waited for one, and one interrupted held its lease far longer than the
 * refresh interval). The deletions are visible after the next scheduled refresh, which a bulk
 * with `refresh: 'wait_for'` right after waits for (`refresh: false`), or which this one waits for
 * ('wait_for'). More matches than one search returns: deleted as `deleteMatching` does.
 */
export async function deleteMatchingVisible(
  es: Client,
  index: string,
  query: object,
  refresh: false | 'wait_for',
): Promise<number> {
  const deleted = new Set<string>();
  try {
    const hits = await searchIds(es, index, query, VISIBLE_PAGE);
    if (hits.length === 0) return 0;
    await bulkDelete(es, index, hits, refresh);
    hits.forEach((hit) => deleted.add(hit._id!));
    if (hits.length < VISIBLE_PAGE) return deleted.size;
    return await deleteRefreshing(es, index, query, deleted);
  } catch (error) {
    throw elasticsearchError(error, `deleting from ${index}`);
  }
}

/** Ids a search without refresh returns at most in one page (a batch's stale chunks are far fewer). */
const VISIBLE_PAGE = 5_000;

type Hit = { _index: string; _id?: string };

async function searchIds(es: Client, index: string, query: object, size: number): Promise<Hit[]> {
  const page = await es.search({
    index,
    query,
    size,
    _source: false,
    allow_no_indices: true,
    ignore_unavailable: true,
  });
  return page.hits.hits;
}

async function bulkDelete(
  es: Client,
  index: string,
  hits: Hit[],
  refresh: false | 'wait_for',
): Promise<void> {
  const response = await es.bulk({
    operations: hits.map((hit) => ({ delete: { _index: hit._index, _id: hit._id! } })),
    refresh,
  });
  const failed = response.items.filter((i) => i.delete?.error && i.delete.status !== 404);
  if (failed.length) {
    throw new TroveError(
      TroveErrorCode.ServiceUnavailable,
      `${failed.length} deletions from ${index} failed (first: ${failed[0].delete!.error!.reason})`,
    );
  }
}

/** Refresh, page of matching ids, bulk delete; until a refreshed search finds none. */
async function deleteRefreshing(
  es: Client,
  index: string,
  query: object,
  deleted: Set<string>,
): Promise<number> {
  for (;;) {
    await es.indices.refresh({ index, allow_no_indices: true, ignore_unavailable: true });
    const hits = await searchIds(es, index, query, 1000);
    if (hits.length === 0) return deleted.size;
    await bulkDelete(es, index, hits, false);
    hits.forEach((hit) => deleted.add(hit._id!));
  }
}
