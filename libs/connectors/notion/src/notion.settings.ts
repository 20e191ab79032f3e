import { z } from 'zod/v4';
import { readPluginSettings } from '@trove/domain';

const optional = <T extends z.ZodType>(schema: T) => schema.optional();

/**
 * The Notion connector's server settings, from its own environment variables (`TROVE_NOTION_*`,
 * read by the plugin; nothing of it is in `@trove/config`). The cache limits are optional: unset
 * means the connector's defaults (900 s, 5,000 page/database/block objects, 64 MB of block trees).
 */
export const notionSettingsSchema = z
  .object({
    /** Notion's API by default; the emulator's address in tests and demos. */
    TROVE_NOTION_API_URL: optional(z.url()),
    TROVE_NOTION_REQUESTS_PER_SECOND: z.coerce.number().positive().default(3),
    /** How long page, database and block objects and block trees read in a run are reused; 0 disables. */
    TROVE_NOTION_CACHE_TTL_SECONDS: optional(z.coerce.number().int().min(0)),
    /** Page, database and block objects kept (all sources of the worker together). */
    TROVE_NOTION_CACHE_MAX_OBJECTS: optional(z.coerce.number().int().positive()),
    /** Block trees kept, in megabytes of JSON (all sources of the worker together). */
    TROVE_NOTION_CACHE_BLOCK_TREES_MB: optional(z.coerce.number().positive()),
  })
  .transform((env) => ({
    apiBaseUrl: env.TROVE_NOTION_API_URL,
    requestsPerSecond: env.TROVE_NOTION_REQUESTS_PER_SECOND,
    cacheTtlSeconds: env.TROVE_NOTION_CACHE_TTL_SECONDS,
    cacheMaxObjects: env.TROVE_NOTION_CACHE_MAX_OBJECTS,
    cacheBlockTreesMb: env.TROVE_NOTION_CACHE_BLOCK_TREES_MB,
  }));

/** What the connector is built with; a hand-built one (tests) may leave the optional fields out. */
export interface NotionSettings {
  apiBaseUrl?: string;
  requestsPerSecond: number;
  cacheTtlSeconds?: number;
  cacheMaxObjects?: number;
  cacheBlockTreesMb?: number;
}

/** The settings from the environment (blank values count as unset); throws naming every variable at fault. */
export function readNotionSettings(env: Readonly<Record<string, string | undefined>>): NotionSettings {
  return readPluginSettings(notionSettingsSchema, env, 'TROVE_NOTION_', 'Notion connector');
}
