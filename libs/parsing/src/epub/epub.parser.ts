import { basename, extname, posix } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode, DEFAULT_DOCUMENT_LIMITS } from '@trove/domain';
import { openDocumentZip } from '../archive/document-zip';
import type { SafeZip } from '../archive/safe-zip';
import { decodeMarkup } from '../html/decode-html';
import { htmlToBlocks, isElement, textContent, type HtmlSection } from '../html/html-blocks';
import { loadHtml, loadXml } from '../html/load-markup';
import { children, descendants, elementsNamed, localName } from '../html/xml-elements';
import { capWarnings } from '../warnings';

export const EPUB_MEDIA_TYPE = 'application/epub+zip';

/** One entry of the book's table of contents, with its target resolved to a path in the archive. */
export interface TocEntry {
  title: string;
  /** Archive path of the target document; undefined for entries without a link (EPUB3 `<span>`). */
  file?: string;
  fragment?: string;
  children: TocEntry[];
}

/** TOCs nested deeper than this are cut (no book needs it; a hostile one could recurse forever). */
const MAX_TOC_DEPTH = 32;
const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/xml', 'text/xml']);

interface ManifestItem {
  id: string;
  /** As written in the OPF (relative to it): the form readers use, and the base of anchors. */
  href: string;
  /** Resolved path inside the archive. */
  path: string;
  mediaType: string;
  properties: string[];
}

interface FlatTocEntry {
  entry: TocEntry;
  section: HtmlSection;
  parent?: FlatTocEntry;
}

/**
 * EPUB 2 and 3 books. The spine gives the reading order; the table of contents (EPUB3 nav document,
 * else EPUB2 NCX) gives each block its `chapter` (the deepest TOC entry covering it) and the start of
 * its heading path (the TOC path down to that entry), with the chapter's own sub-headings below.
 * Anchors are `<spine href>#<id>`. The archive is read through safe-zip's limits.
 */
export class EpubParser implements Parser {
  readonly mediaTypes = [EPUB_MEDIA_TYPE] as const;

  constructor(private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const name = input.fileName;
    const zip = await openDocumentZip(input, this.limits);
    const files = new ArchivePaths(zip);
    const warnings: string[] = [];

    const opfPath = await packagePath(zip, files, name);
    const opf = loadXml(await readText(zip, name, opfPath));
    const opfDir = posix.dirname(opfPath);
    const metadata = packageMetadata(opf);
    const manifest = manifestItems(opf, opfDir);
    const spine = spineItems(opf, manifest, files, name);
    await refuseDrm(zip, files, name, spine);

    const toc = await tableOfContents(zip, files, name, opf, manifest, warnings);
    const flat = flattenToc(toc);
    const byFile = new Map<string, FlatTocEntry[]>();
    for (const flatEntry of flat) {
      const file = flatEntry.entry.file;
      if (!file) continue;
      const entries = byFile.get(file);
      if (entries) entries.push(flatEntry);
      else byFile.set(file, [flatEntry]);
    }

    const blocks: ParsedBlock[] = [];
    // A chapter that runs on into the next spine document keeps its TOC entry there.
    let carried: HtmlSection | undefined;
    for (const { item, linear } of spine) {
      // Non-linear items (cover, pop-up notes) are read only when the TOC points into them.
      if (!linear && !byFile.has(item.path)) continue;
      if (!CONTENT_TYPES.has(item.mediaType)) {
        warnings.push(`skipped spine item ${item.href} (${item.mediaType}): not a text document`);
        continue;
      }
      const decoded = decodeMarkup(`${name}: ${item.path}`, await zip.read(files.resolve(item.path)!));
      const $ = loadHtml(decoded.text, { xhtml: item.mediaType !== 'text/html' });
      const ids = elementIds($);
      const byId = new Map<string, HtmlSection>();
      let start: HtmlSection | undefined;
      let firstTarget: FlatTocEntry | undefined;
      for (const flatEntry of byFile.get(item.path) ?? []) {
        const { entry, section } = flatEntry;
        if (entry.fragment && ids.has(entry.fragment)) {
          byId.set(entry.fragment, section);
          firstTarget ??= flatEntry;
        } else {
          if (entry.fragment)
            warnings.push(`TOC entry "${entry.title}" points to a missing #${entry.fragment}`);
          start ??= section;
        }
      }
      let section = start ?? sectionBeforeFirstTarget(flat, firstTarget, carried);
      const root = $('body').first()[0] ?? $.root()[0];
      blocks.push(
        ...htmlToBlocks(root, {
          section,
          sections: byId,
          anchorFor: (id) => (id ? `${item.href}#${id}` : item.href),
          onSection: (_, entered) => (section = entered),
        }),
      );
      carried = section;
    }

    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${name} has no text content in its spine`,
      );
    }
    if (toc.length === 0) warnings.unshift('the book has no table of contents: blocks have no chapter');
    const document: ParsedDocument = {
      title: metadata.title || basename(name, extname(name)),
      metadata,
      blocks,
    };
    if (warnings.length > 0) document.warnings = capWarnings(warnings);
    return document;
  }
}

/** Looks archive paths up exactly, then ignoring case (books zipped on Windows get the case wrong). */
class ArchivePaths {
  private readonly lowerCase = new Map<string, string>();

  constructor(private readonly zip: SafeZip) {
    for (const entry of zip.entries) {
      if (!entry.isDirectory) this.lowerCase.set(entry.path.toLowerCase(), entry.path);
    }
  }

  resolve(path: string): string | undefined {
    return this.zip.has(path) ? path : this.lowerCase.get(path.toLowerCase());
  }
}

async function packagePath(zip: SafeZip, files: ArchivePaths, name: string): Promise<string> {
  const containerPath = files.resolve('META-INF/container.xml');
  if (!containerPath) {
    throw new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      `${name} is not an EPUB: META-INF/container.xml is missing`,
    );
  }
  const container = loadXml(await readText(zip, name, containerPath));
  const rootfiles = elementsNamed(container, 'rootfile');
  const rootfile =
    rootfiles.find((el) => el.attribs['media-type'] === 'application/oebps-package+xml') ?? rootfiles[0];
  const fullPath = rootfile?.attribs['full-path'];
  if (!fullPath) {
    throw new PermanentDocumentError(
      TroveErrorCode.CorruptDocument,
      `${name}: META-INF/container.xml names no package document (rootfile full-path)`,
    );
  }
  const path = files.resolve(safeDecode(fullPath));
  if (!path) {
    throw new PermanentDocumentError(
      TroveErrorCode.CorruptDocument,
      `${name}: the package document ${fullPath} named in META-INF/container.xml is not in the archive`,
    );
  }
  return path;
}

function packageMetadata(opf: CheerioAPI): Record<string, string> {
  const metadata: Record<string, string> = {};
  const holder = elementsNamed(opf, 'metadata')[0];
  if (!holder) return metadata;
  const values = (field: string) =>
    children(holder, field)
      .map((el) => textContent(el))
      .filter(Boolean);
  for (const field of ['title', 'language', 'publisher', 'date']) {
    const [value] = values(field);
    if (value) metadata[field] = value;
  }
  const creators = values('creator');
  if (creators.length > 0) metadata.creator = creators.join(', ');
  return metadata;
}

function manifestItems(opf: CheerioAPI, opfDir: string): Map<string, ManifestItem> {
  const items = new Map<string, ManifestItem>();
  for (const el of elementsNamed(opf, 'item')) {
    const { id, href } = el.attribs;
    if (!id || !href) continue;
    const target = resolveHref(opfDir, href);
    if (!target) continue;
    items.set(id, {
      id,
      href: href.split('#')[0],
      path: target.file,
      mediaType: (el.attribs['media-type'] ?? '').toLowerCase(),
      properties: (el.attribs.properties ?? '').split(/\s+/).filter(Boolean),
    });
  }
  return items;
}

function spineItems(
  opf: CheerioAPI,
  manifest: Map<string, ManifestItem>,
  files: ArchivePaths,
  name: string,
): { item: ManifestItem; linear: boolean }[] {
  const spine = elementsNamed(opf, 'spine')[0];
  const refs = spine ? children(spine, 'itemref') : [];
  if (refs.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.CorruptDocument, `${name}: the package has no spine`);
  }
  return refs.map((ref) => {
    const idref = ref.attribs.idref ?? '';
    const item = manifest.get(idref);
    if (!item) {
      throw new PermanentDocumentError(
        TroveErrorCode.CorruptDocument,
        `${name}: the spine refers to "${idref}", which the manifest does not list`,
      );
    }
    if (!files.resolve(item.path)) {
      throw new PermanentDocumentError(
        TroveErrorCode.CorruptDocument,
        `${name}: the spine item ${item.path} is not in the archive`,
      );
    }
    return { item, linear: ref.attribs.linear !== 'no' };
  });
}

/** DRM (Adobe ADEPT, Apple FairPlay…) encrypts the content documents; obfuscated fonts alone are fine. */
async function refuseDrm(
  zip: SafeZip,
  files: ArchivePaths,
  name: string,
  spine: { item: ManifestItem }[],
): Promise<void> {
  const encryptionPath = files.resolve('META-INF/encryption.xml');
  if (!encryptionPath) return;
  const encryption = loadXml(await readText(zip, name, encryptionPath));
  const content = new Set(spine.map(({ item }) => item.path));
  let encrypted = 0;
  for (const data of elementsNamed(encryption, 'EncryptedData')) {
    // Paths in encryption.xml are relative to the archive root. Encrypted fonts do not matter.
    const uri = descendants(data, 'CipherReference')[0]?.attribs.URI;
    const target = uri ? resolveHref('', uri)?.file : undefined;
    if (target && content.has(target)) encrypted++;
  }
  if (encrypted > 0) {
    throw new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${name} is DRM-protected: ${encrypted} of its ${content.size} content documents are encrypted ` +
        `(META-INF/encryption.xml); remove the DRM or upload a DRM-free edition`,
    );
  }
}

async function tableOfContents(
  zip: SafeZip,
  files: ArchivePaths,
  name: string,
  opf: CheerioAPI,
  manifest: Map<string, ManifestItem>,
  warnings: string[],
): Promise<TocEntry[]> {
  const items = [...manifest.values()];
  const nav = items.find((item) => item.properties.includes('nav'));
  const spineToc = elementsNamed(opf, 'spine')[0]?.attribs.toc;
  const ncx =
    (spineToc ? manifest.get(spineToc) : undefined) ??
    items.find((item) => item.mediaType === 'application/x-dtbncx+xml');
  for (const [item, read] of [
    [nav, navEntries],
    [ncx, ncxEntries],
  ] as const) {
    if (!item) continue;
    const path = files.resolve(item.path);
    if (!path) {
      warnings.push(`the table of contents ${item.path} is not in the archive`);
      continue;
    }
    const entries = read(await readText(zip, name, path), posix.dirname(item.path));
    if (entries.length > 0) return entries;
  }
  return [];
}

/** EPUB3: `<nav epub:type="toc">` with nested `<ol><li><a href>`. */
export function navEntries(markup: string, dir: string): TocEntry[] {
  const $ = loadHtml(markup, { xhtml: true });
  const navs = $('nav').toArray();
  const toc =
    navs.find((nav) => (nav.attribs['epub:type'] ?? '').split(/\s+/).includes('toc')) ??
    navs.find((nav) => nav.attribs.role === 'doc-toc') ??
    navs[0];
  const list = toc ? descendants(toc, 'ol')[0] : undefined;
  return list ? navList(list, dir, 0) : [];
}

function navList(list: Element, dir: string, depth: number): TocEntry[] {
  if (depth >= MAX_TOC_DEPTH) return [];
  const entries: TocEntry[] = [];
  for (const li of children(list, 'li')) {
    const nested = children(li, 'ol')[0];
    // The label is the item's own <a> or <span>; some books wrap it (<li><p><a>).
    const label =
      li.children.find(
        (child): child is Element => isElement(child) && ['a', 'span'].includes(localName(child)),
      ) ?? (nested ? undefined : descendants(li, 'a')[0]);
    const href = label && localName(label) === 'a' ? label.attribs.href : undefined;
    entries.push({
      title: label ? textContent(label) : '',
      ...(href ? resolveHref(dir, href) : {}),
      children: nested ? navList(nested, dir, depth + 1) : [],
    });
  }
  return entries;
}

/** EPUB2: the NCX `navMap` of nested `navPoint`s. */
export function ncxEntries(markup: string, dir: string): TocEntry[] {
  const $ = loadXml(markup);
  const navMap = elementsNamed($, 'navMap')[0];
  return navMap ? navPoints(navMap, dir, 0) : [];
}

function navPoints(parent: Element, dir: string, depth: number): TocEntry[] {
  if (depth >= MAX_TOC_DEPTH) return [];
  return children(parent, 'navPoint').map((point) => {
    const label = children(point, 'navLabel')[0];
    const text = label ? children(label, 'text')[0] : undefined;
    const src = children(point, 'content')[0]?.attribs.src;
    return {
      title: text ? textContent(text) : '',
      ...(src ? resolveHref(dir, src) : {}),
      children: navPoints(point, dir, depth + 1),
    };
  });
}

/** Pre-order (reading order of the TOC), each entry with the section its blocks belong to. */
function flattenToc(entries: TocEntry[]): FlatTocEntry[] {
  const flat: FlatTocEntry[] = [];
  const visit = (list: TocEntry[], path: string[], parent: FlatTocEntry | undefined) => {
    for (const entry of list) {
      if (!entry.title) {
        visit(entry.children, path, parent);
        continue;
      }
      const headingPath = [...path, entry.title];
      const flatEntry = { entry, parent, section: { headingPath, chapter: entry.title, title: entry.title } };
      flat.push(flatEntry);
      visit(entry.children, headingPath, flatEntry);
    }
  };
  visit(entries, [], undefined);
  return flat;
}

/**
 * Where the text at the top of a document, before its first TOC target, belongs when no entry
 * targets the document itself: to a link-less TOC entry just before that target and enclosing it
 * (an EPUB3 `<span>` part title), else to the section the previous document ended in.
 */
function sectionBeforeFirstTarget(
  flat: FlatTocEntry[],
  first: FlatTocEntry | undefined,
  carried: HtmlSection | undefined,
): HtmlSection | undefined {
  if (!first) return carried;
  for (let i = flat.indexOf(first) - 1; i >= 0 && !flat[i].entry.file; i--) {
    for (let ancestor = first.parent; ancestor; ancestor = ancestor.parent) {
      if (ancestor === flat[i]) return ancestor.section;
    }
  }
  return carried;
}

function resolveHref(dir: string, href: string): { file: string; fragment?: string } | undefined {
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const fragment = hash < 0 ? '' : safeDecode(href.slice(hash + 1));
  // External links (http:, mailto:) and same-document links have no file in the archive.
  if (!path || /^[a-z][a-z\d+.-]*:/i.test(path)) return undefined;
  const file = posix.normalize(posix.join(dir, safeDecode(path.split('?')[0])));
  if (file.startsWith('../') || file.startsWith('/')) return undefined;
  return fragment ? { file, fragment } : { file };
}

function elementIds($: CheerioAPI): Set<string> {
  const ids = new Set<string>();
  $('[id], a[name]').each((_, el) => {
    const id = el.attribs.id ?? el.attribs.name;
    if (id) ids.add(id);
  });
  return ids;
}

async function readText(zip: SafeZip, name: string, path: string): Promise<string> {
  return decodeMarkup(`${name}: ${path}`, await zip.read(path)).text;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
