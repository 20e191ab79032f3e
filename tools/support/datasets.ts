import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { sharedDatasets } from '@trove/testing';

/** Small public data sets committed with the repository (each with its PROVENANCE.md). */
const REPO_DATASETS = resolve(__dirname, '..', '..', 'datasets');

/**
 * A data set directory: the path as given when it exists, else a data set of that name in the
 * repository's `datasets/` (small public sets committed with their provenance, e.g.
 * climate-fever-sentences), else in the shared datasets (found as test/support/services.ts finds
 * them, TROVE_DATASETS first), so `--dataset ru_rumeddanet` and
 * `--dataset ../shared/datasets/ru_rumeddanet` work from any worktree.
 */
export function datasetDir(arg: string): string {
  const candidates = [
    resolve(arg),
    join(REPO_DATASETS, basename(arg)),
    join(sharedDatasets(), arg),
    join(sharedDatasets(), basename(arg)),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'corpus.jsonl')));
  if (!found) throw new Error(`no BEIR data set (corpus.jsonl) at ${[...new Set(candidates)].join(' or ')}`);
  return found;
}
