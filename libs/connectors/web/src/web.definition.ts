import { z } from 'zod/v4';
import { configProblem, isTroveError, type SourceConfig, type SourceDefinition } from '@trove/domain';
import { assertSafeUrl, type ResolveHost, resolveWithDns } from './url-safety';
import { normalizeUrl } from './urls';
import { WEB_SOURCE_TYPE } from './web-source';

/** At most this many pages a web source may ask for. */
export const MAX_WEB_PAGES = 100_000;

const configSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .describe(
      'An http(s) base URL (the pages under it, found by following links) or a sitemap.xml URL; robots.txt is respected',
    ),
  maxPages: z
    .number()
    .int()
    .min(1)
    .max(MAX_WEB_PAGES)
    .optional()
    .describe(
      `At most this many pages are read, 1 to ${MAX_WEB_PAGES}; default: the server's default (setting TROVE_WEB_DEFAULT_MAX_PAGES)`,
    ),
});

export interface WebDefinitionSettings {
  /** Whether loopback, private and link-local addresses may be read (off in production). */
  allowPrivateNetworks: boolean;
  defaultMaxPages: number;
  /** How host names are resolved for the safety check; DNS by default. */
  resolve?: ResolveHost;
}

/** A web site: the pages under a base URL, or those a sitemap lists. */
export function webSourceDefinition(settings: WebDefinitionSettings): SourceDefinition {
  return {
    type: WEB_SOURCE_TYPE,
    label: 'Web site',
    description:
      'The pages under a base URL (found by following links) or those a sitemap.xml lists, fetched politely.',
    configSchema,
    secretFields: [],
    async prepare(config: SourceConfig): Promise<SourceConfig> {
      const { url, maxPages } = config as z.output<typeof configSchema>;
      const normalized = normalizeUrl(url);
      if (!normalized) throw configProblem(WEB_SOURCE_TYPE, 'url', 'not a URL Trove can read');
      // Refused now rather than at the first sync (the worker checks again before every request).
      try {
        await assertSafeUrl(normalized, {
          allowPrivateNetworks: settings.allowPrivateNetworks,
          resolve: settings.resolve ?? resolveWithDns,
        });
      } catch (error) {
        if (isTroveError(error)) throw configProblem(WEB_SOURCE_TYPE, 'url', error.message);
        throw error;
      }
      return { url: normalized.href, maxPages: maxPages ?? settings.defaultMaxPages };
    },
    summarize(config: SourceConfig): string {
      const { url, maxPages } = config as { url?: string; maxPages?: number };
      return `web pages under ${url ?? '?'}${maxPages ? ` (at most ${maxPages})` : ''}`;
    },
  };
}
