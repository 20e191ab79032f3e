import { randomBytes } from 'node:crypto';
import { errors, type Client } from '@elastic/elasticsearch';
import { IndexNames } from '@trove/search';
import { BackupError, BackupErrorCode, SNAPSHOT_NAME, type BackupManifest } from './manifest';

type EsState = BackupManifest['elasticsearch'];

/** Progress lines of a long step (snapshot, restore): a phrase and, when known, a fraction done. */
export type Progress = (message: string, done?: number, total?: number) => void;

const POLL_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reason(error: unknown): string {
  if (error instanceof errors.ResponseError) {
    const body = error.body as { error?: { reason?: string; caused_by?: { reason?: string } } } | undefined;
    return [body?.error?.reason, body?.error?.caused_by?.reason].filter(Boolean).join(': ') || error.message;
  }
  return (error as Error).message;
}

/** What a snapshot holds: the prefix's chunk indices (every generation) and their aliases. */
export async function describeIndices(es: Client, indexPrefix: string): Promise<EsState> {
  const names = new IndexNames(indexPrefix);
  const pattern = names.allChunkIndices;
  await es.indices.refresh({ index: pattern, allow_no_indices: true, ignore_unavailable: true });
  const aliasMap = await es.indices.getAlias({ index: pattern, allow_no_indices: true });
  const indices: EsState['indices'] = [];
  const aliases: EsState['aliases'] = [];
  for (const name of Object.keys(aliasMap).sort()) {
    const { count } = await es.count({ index: name });
    indices.push({ name, documents: count });
    for (const [alias, settings] of Object.entries(aliasMap[name].aliases ?? {})) {
      aliases.push({ alias, index: name, isWriteIndex: Boolean(settings.is_write_index) });
    }
  }
  return { version: await clusterVersion(es), indexPrefix, snapshot: SNAPSHOT_NAME, indices, aliases };
}

/**
 * The oldest node version of the cluster (what a snapshot's compatibility depends on). Read from
 * the nodes API: the integ-test distribution infra/local runs has no `GET /`.
 */
export async function clusterVersion(es: Client): Promise<string> {
  const { nodes } = await es.nodes.info({ filter_path: ['nodes.*.version'] });
  const versions = Object.values(nodes ?? {}).map((node) => node.version);
  if (!versions.length) throw new BackupError(BackupErrorCode.Snapshot, 'Elasticsearch listed no nodes');
  return versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0];
}

/** Registers `location` as a snapshot repository for one operation; `work` runs, then it is unregistered. */
async function withRepository<T>(
  es: Client,
  location: string,
  readonly: boolean,
  work: (repository: string) => Promise<T>,
): Promise<T> {
  const repository = `trove-backup-${randomBytes(4).toString('hex')}`;
  try {
    await es.snapshot.createRepository({
      name: repository,
      repository: { type: 'fs', settings: { location, readonly } },
      verify: true,
    });
  } catch (error) {
    const why = reason(error);
    const hint = /path\.repo/.test(why)
      ? ' The backup folder must be inside one of Elasticsearch’s path.repo folders ' +
        '(infra/local: TROVE_ES_PATH_REPO, default .trove/local/data/backups; Docker: the /backups volume).'
      : ' Elasticsearch must be able to ' + (readonly ? 'read' : 'write') + ' that folder, at the same path.';
    throw new BackupError(
      BackupErrorCode.Snapshot,
      `Elasticsearch cannot use ${location} as a snapshot repository: ${why}.${hint}`,
    );
  }
  try {
    return await work(repository);
  } finally {
    await es.snapshot.deleteRepository({ name: repository }).catch(() => undefined);
  }
}

/** Snapshots the indices into the repository at `location` and waits for it, reporting shard progress. */
export async function snapshotIndices(
  es: Client,
  location: string,
  state: EsState,
  progress: Progress,
): Promise<void> {
  if (!state.indices.length) return;
  await withRepository(es, location, false, async (repository) => {
    await es.snapshot.create({
      repository,
      snapshot: SNAPSHOT_NAME,
      indices: state.indices.map((i) => i.name).join(','),
      include_global_state: false,
      wait_for_completion: false,
    });
    // The shards report done before the snapshot is finalised: its own state is what ends the wait.
    let snapshot;
    for (;;) {
      const { snapshots } = await es.snapshot.get({ repository, snapshot: SNAPSHOT_NAME });
      snapshot = snapshots?.[0];
      if (snapshot && snapshot.state !== 'IN_PROGRESS') break;
      const status = (await es.snapshot.status({ repository, snapshot: SNAPSHOT_NAME })).snapshots[0];
      const shards = status?.shards_stats;
      progress(
        `snapshot: ${shards?.done ?? 0}/${shards?.total ?? '?'} shards copied ` +
          `(${formatBytes(status?.stats.total.size_in_bytes ?? 0)})`,
        shards?.done,
        shards?.total,
      );
      await sleep(POLL_MS);
    }
    const shards = snapshot.shards;
    progress(
      `snapshot ${snapshot.state}: ${shards?.successful ?? 0}/${shards?.total ?? 0} shards`,
      shards?.successful,
      shards?.total,
    );
    if (snapshot.state !== 'SUCCESS') {
      const failure = snapshot.failures?.[0]?.reason;
      throw new BackupError(
        BackupErrorCode.Snapshot,
        `the Elasticsearch snapshot ended ${snapshot.state}${failure ? `: ${failure}` : ''}`,
      );
    }
  });
}

/** Whether any index or alias of the prefix exists: a restore target must have none. */
export async function existingIndices(es: Client, indexPrefix: string): Promise<string[]> {
  const names = new IndexNames(indexPrefix);
  const found = await es.indices.get({
    index: `${names.allChunkIndices},${names.chunks}`,
    allow_no_indices: true,
    ignore_unavailable: true,
    expand_wildcards: 'all',
  });
  return Object.keys(found);
}

export async function deleteIndices(es: Client, names: string[]): Promise<void> {
  if (names.length) await es.indices.delete({ index: names.join(','), ignore_unavailable: true });
}

/**
 * Restores the snapshot's indices with their aliases, waits until every shard is started, then
 * checks each index's document count and every alias against the manifest.
 */
export async function restoreIndices(
  es: Client,
  location: string,
  state: EsState,
  progress: Progress,
  options: { aliases: boolean } = { aliases: true },
): Promise<void> {
  if (!state.indices.length) return;
  const index = state.indices.map((i) => i.name).join(',');
  await withRepository(es, location, true, async (repository) => {
    try {
      await es.snapshot.restore({
        repository,
        snapshot: SNAPSHOT_NAME,
        indices: index,
        include_global_state: false,
        include_aliases: options.aliases,
        wait_for_completion: false,
      });
    } catch (error) {
      throw new BackupError(BackupErrorCode.Snapshot, `Elasticsearch refused the restore: ${reason(error)}`);
    }
    for (;;) {
      const health = await es.cluster.health({ index, level: 'indices' });
      const perIndex = Object.values(health.indices ?? {});
      const total = perIndex.reduce((sum, i) => sum + i.number_of_shards, 0);
      const started = perIndex.reduce((sum, i) => sum + i.active_primary_shards, 0);
      progress(`restoring indices: ${started}/${total} primary shards started`, started, total);
      if (
        health.status === 'red' &&
        health.initializing_shards === 0 &&
        perIndex.length === state.indices.length
      ) {
        const shards = await es.cat.shards({ index, format: 'json' });
        throw new BackupError(
          BackupErrorCode.Snapshot,
          `the restored indices stay red (${JSON.stringify(shards).slice(0, 300)})`,
        );
      }
      if (perIndex.length === state.indices.length && total > 0 && started === total) break;
      await sleep(POLL_MS);
    }
  });
  await es.indices.refresh({ index });
  for (const expected of state.indices) {
    const { count } = await es.count({ index: expected.name });
    if (count !== expected.documents) {
      throw new BackupError(
        BackupErrorCode.Corrupt,
        `${expected.name} holds ${count} chunks after the restore, the backup recorded ${expected.documents}`,
      );
    }
  }
  const restored = await describeIndices(es, state.indexPrefix);
  const key = (a: EsState['aliases'][number]) => `${a.alias}→${a.index}${a.isWriteIndex ? ' (write)' : ''}`;
  const missing = state.aliases.map(key).filter((a) => !restored.aliases.map(key).includes(a));
  if (missing.length) {
    throw new BackupError(
      BackupErrorCode.Corrupt,
      `aliases missing after the restore: ${missing.join(', ')}`,
    );
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
