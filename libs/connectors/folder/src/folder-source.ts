import type { Source } from '@trove/domain';

/**
 * The type's name, as sources, the API and the registry spell it: a folder of files on the
 * server, or a `.zip` of one uploaded through the API.
 */
export const FOLDER_SOURCE_TYPE = 'FOLDER';

/** How a folder source is read. */
export enum FolderFormat {
  /** MKDOCS when the folder has mkdocs.yml, COMBINED_MARKDOWN when the path is one Markdown file, else FILES. */
  AUTO = 'AUTO',
  /** A MkDocs project: pages in nav order, citations link to the built site's URLs and anchors. */
  MKDOCS = 'MKDOCS',
  /** One large Markdown file, split into a document per top-level section. */
  COMBINED_MARKDOWN = 'COMBINED_MARKDOWN',
  /** Every supported file (`DOCUMENT_FORMATS`, images aside) under the folder is a document. */
  FILES = 'FILES',
}

/** A folder source's stored configuration. */
export interface FolderSourceConfig {
  format: FolderFormat;
  /** A server-side path (a folder, or a Markdown file for COMBINED_MARKDOWN), inside the allowed roots. */
  path?: string;
  /** An uploaded `.zip`: its blob key and content hash (the worker unpacks it to a cache). */
  archiveBlobKey?: string;
  archiveHash?: string;
  archiveFileName?: string;
  /** Public base URL for citations; overrides mkdocs.yml `site_url`. */
  siteUrl?: string;
}

export type FolderSource = Source<typeof FOLDER_SOURCE_TYPE, FolderSourceConfig>;
