import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecretSealer, SourceDefinitions } from '@trove/domain';
import { folderSourceDefinition } from './folder.definition';
import { FOLDER_SOURCE_TYPE } from './folder-source';

const seal: SecretSealer = (plain) => ({ sealed: plain, hint: '…' });
let root: string;
let registry: SourceDefinitions;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'trove-folder-definition-')));
  registry = new SourceDefinitions([folderSourceDefinition({ roots: [root] })], [FOLDER_SOURCE_TYPE]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const refusal = (config: unknown, previous?: object) =>
  registry.configure(FOLDER_SOURCE_TYPE, config, seal, previous).then(
    () => 'accepted',
    (error: Error) => error.message,
  );

describe('the folder source definition', () => {
  it('resolves a path inside the allowed roots and defaults the format', async () => {
    expect(await registry.configure(FOLDER_SOURCE_TYPE, { path: root }, seal)).toEqual({
      path: root,
      format: 'AUTO',
    });
  });

  it('names the field at fault: a missing path, one outside the roots, a site URL that is not http(s)', async () => {
    expect(await refusal({})).toBe(
      'invalid FOLDER source configuration: config.path: required: a folder or Markdown file on the server',
    );
    expect(await refusal({ path: '/etc' })).toMatch(
      /^invalid FOLDER source configuration: config\.path: \/etc is not/,
    );
    expect(await refusal({ path: root, siteUrl: 'ftp://site.test/' })).toContain(
      'config.siteUrl: must be an http(s) URL',
    );
    expect(await refusal({ path: root, format: 'ZIP' })).toContain('config.format: ');
  });

  it("keeps an archive source's server fields, refuses a path or a combined Markdown format for it", async () => {
    const archive = {
      format: 'AUTO',
      archiveBlobKey: 'archives/s/h',
      archiveHash: 'h',
      archiveFileName: 'site.zip',
    };
    expect(
      await registry.configure(FOLDER_SOURCE_TYPE, { siteUrl: 'https://docs.test/' }, seal, archive),
    ).toEqual({ ...archive, siteUrl: 'https://docs.test/' });
    expect(await refusal({ path: root }, archive)).toContain(
      'config.path: an archive source has no path: upload a new archive',
    );
    expect(await refusal({ format: 'COMBINED_MARKDOWN' }, archive)).toContain(
      'config.format: an archive is a folder',
    );
    // Clients neither see nor set the archive's blob key.
    expect(registry.publicConfig(FOLDER_SOURCE_TYPE, archive)).toEqual({
      format: 'AUTO',
      archiveFileName: 'site.zip',
    });
    expect(await refusal({ archiveBlobKey: 'archives/other/h' }, archive)).toContain(
      'config.archiveBlobKey: unknown field',
    );
  });
});

describe('an uploaded archive as a folder source', () => {
  const archive = { blobKey: 'sources/s1/archive/abc', sha256: 'abc', fileName: 'site.zip' };
  it('is the one type the registry gives uploads to, and configures a new or replaced archive', () => {
    const definition = registry.archiveType();
    expect(definition.type).toBe(FOLDER_SOURCE_TYPE);
    const created = definition.archive.configure(archive, { siteUrl: 'https://handbook.example.com' });
    expect(created).toEqual({
      format: 'AUTO',
      archiveBlobKey: archive.blobKey,
      archiveHash: 'abc',
      archiveFileName: 'site.zip',
      siteUrl: 'https://handbook.example.com/',
    });
    expect(definition.archive.isArchive(created)).toBe(true);
    expect(definition.archive.isArchive({ format: 'AUTO', path: root })).toBe(false);
    // A replaced archive keeps the source's format and site URL unless the upload changes them.
    const replaced = definition.archive.configure(
      { ...archive, sha256: 'def' },
      {},
      { ...created, format: 'MKDOCS' },
    );
    expect(replaced).toMatchObject({
      format: 'MKDOCS',
      archiveHash: 'def',
      siteUrl: 'https://handbook.example.com/',
    });
  });

  it('refuses an unknown or a combined Markdown format and a site URL that is not http(s)', () => {
    const { archive: upload } = registry.archiveType();
    expect(() => upload.configure(archive, { format: 'PDF' })).toThrow(/^format must be one of AUTO, /);
    expect(() => upload.configure(archive, { format: 'COMBINED_MARKDOWN' })).toThrow(
      'an archive is a folder',
    );
    expect(() => upload.configure(archive, { siteUrl: 'ftp://x' })).toThrow('siteUrl must be an http(s) URL');
  });
});
