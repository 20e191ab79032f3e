import type { Source } from '@trove/domain';

/**
 * The type's name, as sources, the API and the registry spell it: a web site, the pages under a
 * base URL or those a `sitemap.xml` lists.
 */
export const WEB_SOURCE_TYPE = 'WEB';

/** A web source's stored configuration: which pages to read. */
export interface WebSourceConfig {
  /** An http(s) base URL (pages under it, found by following links) or a `sitemap.xml` URL. */
  url: string;
  /** At most this many pages are read. */
  maxPages: number;
}

export type WebSource = Source<typeof WEB_SOURCE_TYPE, WebSourceConfig>;
