import { z } from 'zod/v4';
import { readPluginSettings } from '@trove/domain';

const positiveInt = z.coerce.number().int().positive();

/**
 * The web connector's server settings, from its own environment variables (`TROVE_WEB_*`, read by
 * the plugin in the API and the worker; nothing of it is in `@trove/config`): crawling politely
 * and safely.
 */
export const webSettingsSchema = z
  .object({
    /** Sent with every request and matched against robots.txt groups. */
    TROVE_WEB_USER_AGENT: z.string().min(1).default('TroveBot/0.1 (+https://github.com/trove)'),
    /** Per host; a robots.txt `Crawl-delay` that is slower wins. */
    TROVE_WEB_REQUESTS_PER_SECOND: z.coerce.number().positive().default(2),
    /**
     * Lets web sources read loopback, private, link-local and cloud-metadata addresses. Off by
     * default: users give Trove URLs, and the worker must not become a way into its own network.
     */
    TROVE_WEB_ALLOW_PRIVATE_NETWORKS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** A page (or robots.txt) larger than this is refused. */
    TROVE_WEB_MAX_PAGE_BYTES: positiveInt.default(10 * 1024 * 1024),
    /** A sitemap larger than this (uncompressed) is refused; the protocol's own limit is 50 MB. */
    TROVE_WEB_MAX_SITEMAP_BYTES: positiveInt.default(50 * 1024 * 1024),
    /** Sitemaps read per discovery, following sitemap indexes. */
    TROVE_WEB_MAX_SITEMAPS: positiveInt.default(50),
    /** Per request, body included. */
    TROVE_WEB_TIMEOUT_MS: positiveInt.default(30_000),
    /** A new web source's page limit when its creator gives none. */
    TROVE_WEB_DEFAULT_MAX_PAGES: positiveInt.default(1000),
  })
  .transform((env) => ({
    userAgent: env.TROVE_WEB_USER_AGENT,
    requestsPerSecond: env.TROVE_WEB_REQUESTS_PER_SECOND,
    allowPrivateNetworks: env.TROVE_WEB_ALLOW_PRIVATE_NETWORKS,
    maxPageBytes: env.TROVE_WEB_MAX_PAGE_BYTES,
    maxSitemapBytes: env.TROVE_WEB_MAX_SITEMAP_BYTES,
    maxSitemaps: env.TROVE_WEB_MAX_SITEMAPS,
    timeoutMs: env.TROVE_WEB_TIMEOUT_MS,
    defaultMaxPages: env.TROVE_WEB_DEFAULT_MAX_PAGES,
  }));

export type WebSettings = z.output<typeof webSettingsSchema>;

/** The settings from the environment (blank values count as unset); throws naming every variable at fault. */
export function readWebSettings(env: Readonly<Record<string, string | undefined>>): WebSettings {
  return readPluginSettings(webSettingsSchema, env, 'TROVE_WEB_', 'web connector');
}
