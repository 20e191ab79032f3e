import { z } from 'zod/v4';
import { readPluginSettings } from '@trove/domain';

const positiveInt = z.coerce.number().int().positive();

/**
 * The Git connector's server settings, from its own environment variables (the registry passes
 * the environment; nothing is added to `@trove/config` for it).
 */
export const gitSettingsSchema = z
  .object({
    /** Where clones are kept, one folder per source. */
    TROVE_GIT_CACHE_DIR: z.string().min(1).default('.trove/git-cache'),
    /** The clones of all sources together; the least recently used are removed beyond it. */
    TROVE_GIT_CACHE_MAX_MB: positiveInt.default(4096),
    /** A git command (clone, fetch) taking longer is stopped. */
    TROVE_GIT_TIMEOUT_MS: positiveInt.default(600_000),
    /** Lets sources use `http://` and `git://` remotes (no transport security); off by default. */
    TROVE_GIT_ALLOW_INSECURE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** Lets sources use remotes on loopback, private and link-local addresses; off by default. */
    TROVE_GIT_ALLOW_PRIVATE_NETWORKS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    TROVE_GIT_BINARY: z.string().min(1).default('git'),
  })
  .transform((env) => ({
    cacheDir: env.TROVE_GIT_CACHE_DIR,
    cacheMaxMb: env.TROVE_GIT_CACHE_MAX_MB,
    timeoutMs: env.TROVE_GIT_TIMEOUT_MS,
    allowInsecure: env.TROVE_GIT_ALLOW_INSECURE,
    allowPrivateNetworks: env.TROVE_GIT_ALLOW_PRIVATE_NETWORKS,
    binary: env.TROVE_GIT_BINARY,
  }));

export type GitSettings = z.output<typeof gitSettingsSchema>;

/** The settings from the environment (blank values count as unset); throws naming every variable at fault. */
export function readGitSettings(env: Readonly<Record<string, string | undefined>>): GitSettings {
  return readPluginSettings(gitSettingsSchema, env, 'TROVE_GIT_', 'Git connector');
}
