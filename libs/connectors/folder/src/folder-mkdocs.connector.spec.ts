import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceStatus, type BlobStore } from '@trove/domain';
import { FolderConnector } from './folder.connector';
import { FOLDER_SOURCE_TYPE, FolderFormat, type FolderSource } from './folder-source';

const WORKER_SECRET = 'worker-only-value-31c9d2';

const noBlobs: Pick<BlobStore, 'openReader'> = {
  openReader: () => Promise.reject(new Error('no archives here')),
};

function folderSource(path: string): FolderSource {
  return {
    id: 'source-mkdocs',
    projectId: 'p1',
    type: FOLDER_SOURCE_TYPE,
    name: 'site',
    status: SourceStatus.ACTIVE,
    config: { format: FolderFormat.AUTO, path },
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

describe('FolderConnector reading a MkDocs project it cannot trust', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'folder-mkdocs-'));
    process.env['TROVE_TEST_WORKER_SECRET'] = WORKER_SECRET;
  });
  afterEach(async () => {
    delete process.env['TROVE_TEST_WORKER_SECRET'];
    await rm(base, { recursive: true, force: true });
  });

  it("never puts the worker's environment into listings, pages or warnings", async () => {
    const root = join(base, 'site');
    await mkdir(join(root, 'docs'), { recursive: true });
    await writeFile(
      join(root, 'mkdocs.yml'),
      'site_name: !ENV TROVE_TEST_WORKER_SECRET\ndocs_dir: !ENV [TROVE_TEST_WORKER_SECRET, docs]\n',
    );
    await writeFile(join(root, 'docs', 'index.md'), '# Home\n\nWelcome.\n');
    const folders = new FolderConnector({ roots: [base], cacheDir: join(base, 'cache') }, noBlobs);
    const source = folderSource(root);

    const listing = await folders.list(source);
    expect(listing.format).toBe(FolderFormat.MKDOCS);
    expect(listing.items.map((item) => item.externalId)).toEqual(['index.md']);
    expect(listing.warnings).toEqual([
      'mkdocs.yml: site_name uses !ENV, which is not resolved in synced content; left empty',
      'mkdocs.yml: docs_dir uses !ENV, which is not resolved in synced content; used its default',
    ]);
    const page = await folders.fetch(source, 'index.md');
    expect(page.title).toBe('Home');
    expect(JSON.stringify([listing, page, page.data.toString()])).not.toContain(WORKER_SECRET);
  });
});
