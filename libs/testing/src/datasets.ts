import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The team's shared evaluation data (`shared/datasets`: BEIR sets and real PDFs, EPUBs, a MkDocs
 * project), read in place and never copied into the repository. Found from `TROVE_DATASETS`, else
 * in a `shared/datasets` folder beside the checkout or one of its parents. Throws when missing:
 * tests on real documents fail loudly instead of passing without them.
 */
export function sharedDatasets(): string {
  const candidates = process.env.TROVE_DATASETS ? [resolve(process.env.TROVE_DATASETS)] : [];
  for (let dir = resolve(__dirname, '../../..'); ; dir = dirname(dir)) {
    candidates.push(join(dir, 'shared', 'datasets'), join(dirname(dir), 'shared', 'datasets'));
    if (dirname(dir) === dir) break;
  }
  candidates.push('/work/shared/datasets');
  const found = candidates.find((path) => existsSync(join(path, 'documents')));
  if (!found) {
    throw new Error(
      `the shared datasets (with documents/pdf, epub, mkdocs) were not found; set TROVE_DATASETS. Looked in: ${[...new Set(candidates)].join(', ')}`,
    );
  }
  return found;
}

/** `shared/datasets/documents`, or one of its folders. */
export function sharedDocuments(...parts: string[]): string {
  return join(sharedDatasets(), 'documents', ...parts);
}

/**
 * Small public documents kept in the repository (`test/fixtures/documents`; provenance and licence
 * in its README) for cases the shared datasets do not cover.
 */
export function fixtureDocument(name: string): string {
  return resolve(__dirname, '../../../test/fixtures/documents', name);
}
