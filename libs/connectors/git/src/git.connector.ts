import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, posix, relative, sep } from 'node:path';
import {
  type DiscoveredItem,
  type DiscoverOptions,
  type Discovery,
  documentOverLimit,
  type EventWork,
  type FetchedItem,
  type FetchOptions,
  IMAGE_EXTENSIONS,
  type SecretOpener,
  type SkippedItem,
  type SourceConnector,
  type SourceEvent,
  sourceItemGone,
} from '@trove/domain';
import {
  compilePathPatterns,
  type MkDocsProject,
  type PathPatterns,
  readMkDocsProject,
  renderMkDocsPage,
} from '@trove/mkdocs';
import { detectMediaType, PARSED_JSON_MEDIA_TYPE, SUPPORTED_EXTENSIONS } from '@trove/parsing/formats';
import { fileViewUrl, forgeRepository } from './forge-urls';
import { GIT_PUSH_EVENT } from './git-webhook';
import { type Checkout, GitRepositories } from './git-repositories';
import type { GitSettings } from './git.settings';
import { GIT_SOURCE_TYPE, type GitSource } from './git-source';
import { parseTree, type TreeEntry } from './git-tree';

/** A Git LFS pointer file is small and starts with this line. */
const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1';
const LFS_POINTER_MAX_BYTES = 1024;
/** Small files read at once to tell LFS pointers (their output stays under a few MB). */
const LFS_BATCH = 2_000;
const MKDOCS_CONFIGS = new Set(['mkdocs.yml', 'mkdocs.yaml']);

/**
 * Reads a branch of a Git repository from a shallow clone (see `GitRepositories`). Every listing
 * is the whole branch at its head, each file's version its blob id, so a sync fetches exactly the
 * files a commit added or changed (a rename is a new path and a gone one) and a force-push needs
 * nothing special. An MkDocs project in the repository gives its pages' site URLs; other files
 * link to the forge's file view at the synced commit.
 *
 * Sizes come from the tree (`ls-tree -l`): every item is listed with its size, and a file over
 * the document size limit is never read nor checked out (the sync skips it; a fetch refuses it).
 */
export class GitConnector implements SourceConnector<GitSource> {
  readonly type = GIT_SOURCE_TYPE;
  private readonly repositories: GitRepositories;
  /** The MkDocs project (or none) of the commit each source was last read at. */
  private readonly projects = new Map<string, { commit: string; project?: MkDocsProject }>();

  constructor(settings: GitSettings, secrets?: SecretOpener, folderRoots: readonly string[] = []) {
    this.repositories = new GitRepositories(settings, secrets, folderRoots);
  }

  async discover(source: GitSource, options: DiscoverOptions): Promise<Discovery> {
    const maxBlobBytes = options.maxItemBytes;
    const checkout = await this.repositories.update(source, { maxBlobBytes });
    const entries = await this.tree(source);
    const warnings: string[] = [];
    const skipped: SkippedItem[] = [];
    const submodules = entries.filter((e) => e.type === 'commit');
    if (submodules.length) {
      warnings.push(
        `${submodules.length} submodule(s) are not synced: ${submodules.map((s) => `${s.path} (${s.object.slice(0, 12)})`).join(', ')}; add each as a source of its own`,
      );
    }
    const { include, exclude } = patterns(source);
    const files = entries.filter(
      (e) => e.type === 'blob' && e.mode !== '120000' && include.matches(e.path) && !exclude.matches(e.path),
    );
    const lfs = await this.lfsPointers(source, files);
    if (lfs.size) {
      warnings.push(
        `${lfs.size} file(s) are Git LFS pointers, whose content Trove does not fetch: ${[...lfs].slice(0, 10).join(', ')}${lfs.size > 10 ? ', …' : ''}`,
      );
      for (const path of lfs)
        skipped.push({ id: path, reason: 'a Git LFS pointer: the content is in LFS storage' });
    }

    const items: DiscoveredItem[] = [];
    const mkdocs = await this.mkdocs(source, checkout, entries);
    const pages = new Map<string, MkDocsProject['pages'][number]>();
    const sizes = new Map(files.map((file) => [file.path, file.size]));
    if (mkdocs) {
      warnings.push(...mkdocs.warnings);
      const yml = await readFile(mkdocs.configPath);
      for (const page of mkdocs.pages) {
        const path = repoPath(checkout, page.absolutePath);
        if (lfs.has(path) || exclude.matches(path)) continue;
        pages.set(path, page);
        const data = await readFile(page.absolutePath);
        items.push({
          externalId: path,
          version: pageVersion(yml, data, page),
          title: page.navTitle,
          sizeBytes: data.length,
        });
      }
    }
    const docsDir = mkdocs && repoPath(checkout, mkdocs.docsDir);
    for (const file of files) {
      if (pages.has(file.path) || lfs.has(file.path)) continue;
      // Markdown under docs_dir the site leaves out is not a document of its own (unless too large
      // to be checked out: the site may well have it, and the sync says why it is left out).
      if (
        docsDir &&
        file.path.startsWith(`${docsDir}/`) &&
        /\.(md|markdown|mdown|mkdn|mkd)$/i.test(file.path) &&
        !(maxBlobBytes !== undefined && (sizes.get(file.path) ?? 0) > maxBlobBytes)
      ) {
        continue;
      }
      items.push({ externalId: file.path, version: file.object, sizeBytes: file.size });
      if (items.length % 500 === 0) options.onProgress?.({ seen: items.length, requests: 1 });
    }
    options.onProgress?.({ seen: items.length, requests: 1 });
    return {
      items,
      skipped,
      warnings,
      complete: true,
      // The synced commit, after the time it was synced at: watermarks only move forward.
      watermark: `${new Date().toISOString()} ${checkout.commit}`,
      requests: 1,
    };
  }

  async fetch(source: GitSource, externalId: string, options: FetchOptions = {}): Promise<FetchedItem> {
    const { maxBytes } = options;
    const checkout = await this.repositories.current(source, { maxBlobBytes: maxBytes });
    // Read again when this process has not listed the commit (another worker listed it).
    const known = this.projects.get(source.id);
    const mkdocs =
      known?.commit === checkout.commit
        ? known.project
        : await this.mkdocs(source, checkout, await this.tree(source));
    const page = mkdocs?.pages.find((p) => repoPath(checkout, p.absolutePath) === externalId);
    if (mkdocs && page) {
      const size = (await stat(page.absolutePath).catch(() => undefined))?.size;
      if (size === undefined) throw gone(externalId);
      if (maxBytes !== undefined && size > maxBytes)
        throw documentOverLimit('maxBytes', externalId, size, maxBytes);
      const data = await readFile(page.absolutePath).catch(() => undefined);
      if (!data) throw gone(externalId);
      const parsed = await renderMkDocsPage(mkdocs, page, data);
      const yml = await readFile(mkdocs.configPath);
      return {
        data: Buffer.from(JSON.stringify(parsed)),
        mediaType: PARSED_JSON_MEDIA_TYPE,
        fileName: externalId,
        title: parsed.title,
        url: /^https?:\/\//.test(page.url) ? page.url : this.viewUrl(source, checkout, externalId),
        version: pageVersion(yml, data, page),
        warnings: parsed.warnings ?? [],
      };
    }
    const object = `${checkout.commit}:${externalId}`;
    let size: number;
    try {
      size = Number((await this.repositories.run(source, ['cat-file', '-s', object])).toString().trim());
    } catch {
      throw gone(externalId);
    }
    // Its size from the object database, so a blob over the limit is never read.
    if (maxBytes !== undefined && size > maxBytes)
      throw documentOverLimit('maxBytes', externalId, size, maxBytes);
    let data: Buffer;
    try {
      data = await this.repositories.run(source, ['cat-file', 'blob', object], size + 1);
    } catch {
      throw gone(externalId);
    }
    return {
      data,
      mediaType: detectMediaType(basename(externalId), data).mediaType,
      fileName: externalId,
      version: blobId(data),
      url: this.viewUrl(source, checkout, externalId),
      warnings: [],
    };
  }

  placeholder(externalId: string): { fileName: string; mediaType: string } {
    return { fileName: externalId, mediaType: 'application/octet-stream' };
  }

  /** A verified push is a new head: an INCREMENTAL sync lists the branch again. */
  async reduceEvents(_source: GitSource, events: SourceEvent[]): Promise<EventWork> {
    const pushes = events.filter((e) => e.type === GIT_PUSH_EVENT).length;
    return { ingest: [], gone: [], ignored: events.length - pushes, resync: pushes > 0 };
  }

  async forget(source: GitSource): Promise<void> {
    this.projects.delete(source.id);
    await this.repositories.forget(source.id);
  }

  private viewUrl(source: GitSource, checkout: Checkout, path: string): string | undefined {
    const repository = forgeRepository(source.config.url, source.config.forge);
    return repository && fileViewUrl(repository, checkout.commit, path);
  }

  private async tree(source: GitSource): Promise<TreeEntry[]> {
    return parseTree(
      await this.repositories.run(source, ['ls-tree', '-r', '-l', '-z', '--full-tree', 'HEAD']),
    );
  }

  /** Paths of the small files that are Git LFS pointers (read by `cat-file --batch`, a batch at a time). */
  private async lfsPointers(source: GitSource, files: TreeEntry[]): Promise<Set<string>> {
    const small = files.filter((f) => f.size >= LFS_POINTER.length && f.size <= LFS_POINTER_MAX_BYTES);
    const pointers = new Set<string>();
    for (let i = 0; i < small.length; i += LFS_BATCH) {
      const batch = small.slice(i, i + LFS_BATCH);
      const out = await this.repositories.run(
        source,
        ['cat-file', '--batch'],
        undefined,
        Buffer.from(batch.map((f) => `${f.object}\n`).join('')),
      );
      // `<oid> blob <size>\n<content>\n` per object, in the order asked.
      let at = 0;
      for (const file of batch) {
        const header = out.indexOf(0x0a, at);
        if (header < 0) break;
        const size = Number(out.toString('utf8', at, header).split(' ')[2] ?? 0);
        const content = out.subarray(header + 1, header + 1 + size);
        if (content.toString('utf8', 0, LFS_POINTER.length) === LFS_POINTER) pointers.add(file.path);
        at = header + 1 + size + 1;
      }
    }
    return pointers;
  }

  /** The MkDocs project of the branch (the shallowest mkdocs.yml), read from the checkout. */
  private async mkdocs(
    source: GitSource,
    checkout: Checkout,
    entries: TreeEntry[],
  ): Promise<MkDocsProject | undefined> {
    const config = entries
      .filter((e) => e.type === 'blob' && MKDOCS_CONFIGS.has(posix.basename(e.path)))
      .sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
    // Never resolves !ENV or reads outside the project folder: the repository's content is untrusted.
    const project =
      config &&
      (await readMkDocsProject(
        join(
          checkout.dir,
          ...posix
            .dirname(config.path)
            .split('/')
            .filter((s) => s !== '.'),
        ),
      ));
    this.projects.set(source.id, { commit: checkout.commit, project });
    return project;
  }
}

/**
 * Include patterns and exclude patterns of a source. The default includes every file type Trove
 * reads but images: in a repository they are mostly the docs' figures and logos, not documents
 * (list `*.png` and the like in `include` to read them by OCR).
 */
function patterns(source: GitSource): { include: PathPatterns; exclude: PathPatterns } {
  const include =
    source.config.include ??
    [...SUPPORTED_EXTENSIONS].filter((ext) => !IMAGE_EXTENSIONS.has(ext)).map((ext) => `*${ext}`);
  return { include: compilePathPatterns(include), exclude: compilePathPatterns(source.config.exclude ?? []) };
}

function repoPath(checkout: Checkout, absolute: string): string {
  return relative(checkout.dir, absolute).split(sep).join('/');
}

/** Git's blob id of content (what `ls-tree` lists), so fetched and listed versions agree. */
function blobId(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** A page changes when its text, its place in the nav, its URL or the site configuration does. */
function pageVersion(config: Buffer, data: Buffer, page: MkDocsProject['pages'][number]): string {
  const h = createHash('sha256');
  for (const part of [config, data, page.url, page.navTitle ?? '', page.navPath.join('\u0000')])
    h.update(part).update('\u0000');
  return h.digest('hex');
}

function gone(externalId: string) {
  return sourceItemGone(`${externalId} is no longer on the branch`);
}
