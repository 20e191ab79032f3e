import { createHash, type Hash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import type {
  BlobStore,
  DiscoverOptions,
  Discovery,
  FetchedItem,
  FetchOptions,
  SourceConnector,
} from '@trove/domain';
import { documentOverLimit, PermanentDocumentError, sourceItemGone, TroveErrorCode } from '@trove/domain';
import {
  readMkDocsProject,
  renderMkDocsPage,
  splitCombinedMarkdown,
  type MkDocsProject,
} from '@trove/mkdocs';
import {
  DEFAULT_ZIP_LIMITS,
  detectMediaType,
  MEDIA_TYPES,
  PARSED_JSON_MEDIA_TYPE,
  SUPPORTED_EXTENSIONS,
  unpackZip,
} from '@trove/parsing/formats';
import { resolveAllowedPath } from '@trove/storage';
import { FOLDER_SOURCE_TYPE, FolderFormat, type FolderSource } from './folder-source';

export interface FolderConnectorConfig {
  /** Server-side folders that sources may read (resolved, absolute). */
  roots: string[];
  /** Where uploaded archives are unpacked. */
  cacheDir: string;
}

/** One document of a folder source, as listed by a sync. */
export interface FolderItem {
  /** The path under the folder (`user-guide/configuration.md`), or `file.md#section` for combined files. */
  externalId: string;
  /** A hash of the item's content and placement (nav title, URL): unchanged hash, nothing to do. */
  version: string;
  /** The file's size (a combined Markdown file's sections: their text's). */
  sizeBytes?: number;
}

export interface FolderListing {
  format: FolderFormat;
  items: FolderItem[];
  skipped: { id: string; reason: string }[];
  warnings: string[];
}

/** More files than this in one folder source is refused (a wrong path, like `/`). */
const MAX_FILES = 20_000;
const IGNORED_DIRECTORIES = new Set(['node_modules', '__pycache__', 'site']);

/** Files read at once while listing a folder. */
const READ_CONCURRENCY = 64;
/** Unpacked folders whose file versions are kept for the listing that follows their unpack. */
const UNPACKED_VERSIONS_KEPT = 4;

/**
 * Reads folder sources: a server-side folder (inside the configured roots) or an uploaded
 * `.zip`, unpacked once per archive version into a cache. Formats: a MkDocs project (pages in
 * nav order with their site URLs), one combined Markdown file split at its top-level headings,
 * or any folder of supported files. Every listing is complete and cheap (local files), so FULL
 * and INCREMENTAL syncs are the same: items whose hash changed are re-ingested. Files are listed
 * with their sizes; one over the size limit is never read (its version comes from its size and
 * modification time), and the sync skips it.
 */
export class FolderConnector implements SourceConnector<FolderSource> {
  readonly type = FOLDER_SOURCE_TYPE;
  private readonly projects = new Map<string, { at: number; project: MkDocsProject }>();
  /**
   * Versions of the files an unpack just wrote (hashed on the way to disk), by unpacked folder:
   * the listing right after the unpack takes them instead of reading every file back. One-shot.
   */
  private readonly unpackedVersions = new Map<string, Map<string, string>>();

  constructor(
    private readonly config: FolderConnectorConfig,
    /** Uploaded archives are read range by range, never whole. */
    private readonly blobs: Pick<BlobStore, 'openReader'>,
  ) {}

  async discover(source: FolderSource, options: DiscoverOptions): Promise<Discovery> {
    const listing = await this.list(
      source,
      (seen) => options.onProgress?.({ seen, requests: 0 }),
      options.maxItemBytes,
    );
    return {
      items: listing.items,
      skipped: listing.skipped,
      warnings: listing.warnings,
      complete: true,
      requests: 0,
    };
  }

  placeholder(externalId: string): { fileName: string; mediaType: string } {
    return { fileName: externalId, mediaType: 'application/octet-stream' };
  }

  /** Removes the unpacked copies of a source's archives (on this worker machine). */
  async forget(source: FolderSource): Promise<void> {
    await this.removeCache(source.id);
  }

  /**
   * Every item with its version and size; `onProgress` hears how many items are listed so far.
   * A file over `maxItemBytes` is listed from its size and modification time, never read.
   */
  async list(
    source: FolderSource,
    onProgress: (listed: number) => void = () => undefined,
    maxItemBytes = Number.POSITIVE_INFINITY,
  ): Promise<FolderListing> {
    const { root, format } = await this.open(source);
    switch (format) {
      case FolderFormat.MKDOCS: {
        const project = await this.project(root, source, true);
        const yml = await readFile(project.configPath, 'utf8');
        const items: FolderItem[] = [];
        for (const page of project.pages) {
          const info = await stat(page.absolutePath);
          const version =
            info.size > maxItemBytes
              ? unreadVersion(info)
              : mkdocsVersion(yml, await readFile(page.absolutePath), page);
          items.push({ externalId: page.sourcePath, version, sizeBytes: info.size });
          onProgress(items.length);
        }
        return { format, items, skipped: [], warnings: project.warnings };
      }
      case FolderFormat.COMBINED_MARKDOWN: {
        // The source is this one file, split at its headings: it is read whole, or not at all.
        const size = (await stat(root)).size;
        if (size > maxItemBytes) throw documentOverLimit('maxBytes', basename(root), size, maxItemBytes);
        const sections = await this.sections(root);
        return {
          format,
          items: sections.map((s) => ({
            externalId: s.externalId,
            version: hash(s.title, s.markdown),
            sizeBytes: Buffer.byteLength(s.markdown),
          })),
          skipped: [],
          warnings: [],
        };
      }
      default: {
        const { files, ignored } = await walk(root);
        const known = this.takeUnpackedVersions(root);
        // A few dozen files at a time: a folder of 100,000 must not open them all at once.
        const items: FolderItem[] = [];
        for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
          items.push(
            ...(await Promise.all(
              files.slice(i, i + READ_CONCURRENCY).map(async (path) => {
                const info = await stat(join(root, path));
                const version =
                  info.size > maxItemBytes
                    ? unreadVersion(info)
                    : (known?.get(path) ?? hash(await readFile(join(root, path))));
                return { externalId: path, version, sizeBytes: info.size };
              }),
            )),
          );
          onProgress(items.length);
        }
        const warnings = ignored ? [`${ignored} files of unsupported types were ignored`] : [];
        return { format: FolderFormat.FILES, items, skipped: [], warnings };
      }
    }
  }

  async fetch(source: FolderSource, externalId: string, options: FetchOptions = {}): Promise<FetchedItem> {
    const { maxBytes = Number.POSITIVE_INFINITY } = options;
    const { root, format } = await this.open(source);
    /** A file's size before it is read: one over the limit is refused unread. */
    const checkSize = async (path: string) => {
      const size = (await stat(path).catch(() => undefined))?.size;
      if (size === undefined) throw gone(externalId);
      if (size > maxBytes) throw documentOverLimit('maxBytes', externalId, size, maxBytes);
    };
    if (format === FolderFormat.COMBINED_MARKDOWN) {
      const section = (await this.sections(root)).find((s) => s.externalId === externalId);
      if (!section) throw gone(externalId);
      return {
        data: Buffer.from(section.markdown),
        mediaType: MEDIA_TYPES.markdown,
        fileName: externalId,
        title: section.title,
        version: hash(section.title, section.markdown),
        warnings: [],
      };
    }
    if (format === FolderFormat.MKDOCS) {
      // Page paths are relative to docs_dir, not to the project folder.
      const project = await this.project(root, source, false);
      const page = project.pages.find((p) => p.sourcePath === externalId);
      if (page) await checkSize(page.absolutePath);
      const data = page && (await readFile(page.absolutePath).catch(() => undefined));
      if (!page || !data) throw gone(externalId);
      const parsed = await renderMkDocsPage(project, page, data);
      return {
        data: Buffer.from(JSON.stringify(parsed)),
        mediaType: PARSED_JSON_MEDIA_TYPE,
        fileName: externalId,
        title: parsed.title,
        url: page.url,
        version: mkdocsVersion(await readFile(project.configPath, 'utf8'), data, page),
        warnings: parsed.warnings ?? [],
      };
    }
    const path = join(root, externalId);
    if (!path.startsWith(root + sep)) throw gone(externalId);
    await checkSize(path);
    let data: Buffer;
    try {
      data = await readFile(path);
    } catch {
      throw gone(externalId);
    }
    return {
      data,
      mediaType: detectMediaType(basename(externalId), data).mediaType,
      fileName: externalId,
      version: hash(data),
      warnings: [],
    };
  }

  /** Removes the unpacked copies of a source's archives (on this worker machine). */
  async removeCache(sourceId: string): Promise<void> {
    const cacheDir = resolve(this.config.cacheDir);
    const base = resolve(cacheDir, sourceId);
    if (!base.startsWith(cacheDir + sep)) throw new Error(`invalid source id ${JSON.stringify(sourceId)}`);
    await rm(base, { recursive: true, force: true });
    for (const root of this.projects.keys()) if (root.startsWith(base + sep)) this.projects.delete(root);
  }

  /** The folder to read and its format (AUTO resolved). */
  private async open(source: FolderSource): Promise<{ root: string; format: FolderFormat }> {
    const folder = source.config;
    const root = folder.archiveBlobKey
      ? await this.unpack(source)
      : await resolveAllowedPath(folder.path ?? '', this.config.roots);
    let format = folder.format;
    const isFile = (await stat(root)).isFile();
    if (format === FolderFormat.AUTO) {
      if (isFile) format = FolderFormat.COMBINED_MARKDOWN;
      else if (existsSync(join(root, 'mkdocs.yml')) || existsSync(join(root, 'mkdocs.yaml')))
        format = FolderFormat.MKDOCS;
      else format = FolderFormat.FILES;
    }
    if (isFile !== (format === FolderFormat.COMBINED_MARKDOWN)) {
      throw new PermanentDocumentError(
        TroveErrorCode.BadRequest,
        format === FolderFormat.COMBINED_MARKDOWN
          ? `${folder.path ?? folder.archiveFileName} is a folder: COMBINED_MARKDOWN needs one Markdown file`
          : `${folder.path} is a file: ${format} needs a folder`,
      );
    }
    return { root, format };
  }

  private async project(root: string, source: FolderSource, fresh: boolean): Promise<MkDocsProject> {
    const cached = this.projects.get(root);
    if (!fresh && cached && Date.now() - cached.at < 60_000) return cached.project;
    // Never resolves !ENV or reads outside `root`: the folder's content is untrusted.
    const project = await readMkDocsProject(root);
    if (source.config.siteUrl) rebase(project, source.config.siteUrl);
    this.projects.set(root, { at: Date.now(), project });
    return project;
  }

  private async sections(file: string) {
    const markdown = await readFile(file, 'utf8');
    const name = basename(file);
    return splitCombinedMarkdown(name, markdown).map((section) => ({
      ...section,
      externalId: `${name}#${section.anchor ?? `section-${section.order}`}`,
    }));
  }

  /**
   * The versions the unpack of the folder holding `root` computed, relative to `root`, once (a
   * later listing reads the files: they may have been unpacked by another worker, or changed).
   */
  private takeUnpackedVersions(root: string): Map<string, string> | undefined {
    for (const [target, versions] of this.unpackedVersions) {
      if (root !== target && !root.startsWith(target + sep)) continue;
      this.unpackedVersions.delete(target);
      const prefix = root === target ? '' : `${relative(target, root).split(sep).join('/')}/`;
      const relativeToRoot = new Map<string, string>();
      for (const [path, version] of versions)
        if (path.startsWith(prefix)) relativeToRoot.set(path.slice(prefix.length), version);
      return relativeToRoot;
    }
    return undefined;
  }

  /**
   * Unpacks an uploaded archive (safely: see unpackZip) into `<cacheDir>/<source>/<hash>`, once
   * per archive version and worker machine, each entry streamed from the blob store to disk. A
   * single top-level folder in the zip is the root.
   */
  private async unpack(source: FolderSource): Promise<string> {
    const folder = source.config;
    const base = resolve(this.config.cacheDir, source.id);
    const target = join(base, folder.archiveHash!.slice(0, 16));
    if (!existsSync(target)) {
      await sweepStaleStaging(base);
      const staging = `${target}.${randomUUID()}.tmp`;
      // Each file's version (see `hash`) computed as it is written: what the listing would read back.
      const hashes = new Map<string, Hash>();
      try {
        await unpackZip(await this.blobs.openReader(folder.archiveBlobKey!), staging, {
          limits: DEFAULT_ZIP_LIMITS,
          archiveName: folder.archiveFileName,
          onData: (path, chunk) => {
            let h = hashes.get(path);
            if (!h) hashes.set(path, (h = createHash('sha256')));
            h.update(chunk);
          },
        });
        let mine = true;
        await rename(staging, target).catch((error) => {
          // Another activity unpacked the same version first.
          if (!existsSync(target)) throw error;
          mine = false;
        });
        if (mine) {
          const versions = new Map<string, string>();
          for (const [path, h] of hashes) versions.set(path, h.update('\u0000').digest('hex'));
          this.unpackedVersions.set(target, versions);
          // Not taken (an unpack for a fetch, an MkDocs listing): only the latest few are kept.
          for (const old of [...this.unpackedVersions.keys()].slice(0, -UNPACKED_VERSIONS_KEPT))
            this.unpackedVersions.delete(old);
        }
      } finally {
        // A failed unpack (a refused entry, full disk, a name the file system refuses) leaves nothing behind.
        await rm(staging, { recursive: true, force: true });
      }
      for (const old of await readdir(base)) {
        if (join(base, old) !== target && !old.endsWith('.tmp'))
          await rm(join(base, old), { recursive: true, force: true });
      }
    }
    const top = (await readdir(target, { withFileTypes: true })).filter(
      (e) => !e.name.startsWith('.') && e.name !== '__MACOSX',
    );
    return top.length === 1 && top[0].isDirectory() ? join(target, top[0].name) : target;
  }
}

/**
 * Staging folders older than this were left by a worker that died while unpacking; younger ones
 * may belong to an unpack still running in another activity.
 */
const STALE_STAGING_MS = 15 * 60_000;

/** Removes the stale `.tmp` staging folders of one source's cache. */
async function sweepStaleStaging(base: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(base);
  } catch {
    return; // no cache for this source yet
  }
  for (const name of names) {
    if (!name.endsWith('.tmp')) continue;
    const path = join(base, name);
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_STAGING_MS)
      await rm(path, { recursive: true, force: true });
  }
}

/** Supported files under `root`, sorted, as posix paths; hidden and build folders skipped. */
async function walk(root: string): Promise<{ files: string[]; ignored: number }> {
  const files: string[] = [];
  let ignored = 0;
  const pending = [root];
  while (pending.length) {
    const dir = pending.pop()!;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRECTORIES.has(entry.name)) pending.push(path);
      } else if (entry.isFile()) {
        if (SUPPORTED_EXTENSIONS.has(extname(entry.name).toLowerCase()))
          files.push(relative(root, path).split(sep).join('/'));
        else ignored++;
        if (files.length > MAX_FILES) {
          throw new PermanentDocumentError(
            TroveErrorCode.BadRequest,
            `the folder has more than ${MAX_FILES} supported files; point the source at a smaller folder`,
          );
        }
      }
    }
  }
  return { files: files.sort(), ignored };
}

/** A page changes when its text, its place in the nav, its URL or the site configuration does. */
function mkdocsVersion(config: string, data: Buffer, page: MkDocsProject['pages'][number]): string {
  return hash(config, data, page.url, page.navTitle ?? '', page.navPath.join('\u0000'));
}

function rebase(project: MkDocsProject, siteUrl: string): void {
  const base = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  const old = project.siteUrl
    ? project.siteUrl.endsWith('/')
      ? project.siteUrl
      : `${project.siteUrl}/`
    : '/';
  for (const page of project.pages) {
    const path = page.url.startsWith(old) ? page.url.slice(old.length) : page.url.replace(/^\//, '');
    page.url = new URL(path, base).toString();
  }
}

/** The version of a file too large to read: it changes when its size or modification time does. */
function unreadVersion(info: { size: number; mtimeMs: number }): string {
  return `unread:${info.size}:${info.mtimeMs}`;
}

function hash(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\u0000');
  return h.digest('hex');
}

function gone(externalId: string) {
  return sourceItemGone(`${externalId} is no longer in the folder`);
}
