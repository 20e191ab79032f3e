import type { SealedSecret, Source } from '@trove/domain';
import type { Forge } from './forge-urls';

/** The type's name, as sources, the API and the registry spell it. */
export const GIT_SOURCE_TYPE = 'GIT';

/** A Git source's stored configuration (secrets sealed). */
export type GitSourceConfig = {
  /** `https://…`, `ssh://…`, `user@host:path`, or a server-side repository path (resolved, inside the roots). */
  url: string;
  /** Unset: the remote's default branch (its HEAD). */
  branch?: string;
  /** gitignore-style patterns of the files to index; unset: every file type Trove parses. */
  include?: string[];
  exclude: string[];
  /** https: a token sent as HTTP basic auth password, with `username`. */
  token?: SealedSecret;
  username?: string;
  /** ssh: a private key (deploy key). */
  deployKey?: SealedSecret;
  /** Push webhooks: the shared secret (GitHub and Gitea sign with it, GitLab sends it). */
  webhookSecret?: SealedSecret;
  maxRepositoryMb: number;
  /** The forge of a self-hosted remote (citations link to its file view). */
  forge?: Forge;
};

export type GitSource = Source<typeof GIT_SOURCE_TYPE, GitSourceConfig>;

/** How a remote URL is reached. */
export type GitTransport = 'https' | 'http' | 'ssh' | 'git' | 'local';

export function transportOf(url: string): GitTransport {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'https' || scheme === 'http' || scheme === 'ssh' || scheme === 'git') return scheme;
  if (scheme === 'file' || url.startsWith('/')) return 'local';
  // scp-like `git@host:owner/repo.git`
  return 'ssh';
}
