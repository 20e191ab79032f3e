/** Forges whose file views Trove links citations to. */
export const FORGES = ['github', 'gitlab', 'gitea', 'bitbucket'] as const;
export type Forge = (typeof FORGES)[number];

export interface ForgeRepository {
  forge: Forge;
  /** The repository's web page, e.g. `https://github.com/owner/repo`. */
  webUrl: string;
}

/**
 * The forge and web page of a remote URL (`https://host/owner/repo.git`, `ssh://git@host/…`,
 * `git@host:owner/repo.git`); `forge` names it for a self-hosted one. Undefined for a server
 * path or an unknown host: citations then link to nothing but the indexed original.
 */
export function forgeRepository(remote: string, forge?: Forge): ForgeRepository | undefined {
  const parsed = parseRemote(remote);
  if (!parsed) return undefined;
  // A web page's port is the remote's for http(s) only (an ssh or git port is not the forge's).
  const host = parsed.web ? parsed.host : parsed.hostname;
  const path = parsed.path;
  const cleaned = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  // A forge repository is owner/name (or group/…/name); a named forge may serve it at the root.
  if (!cleaned || (!forge && !cleaned.includes('/'))) return undefined;
  const kind = forge ?? guessForge(host);
  if (!kind) return undefined;
  // A forge's web pages are https, whatever protocol the clone used.
  return { forge: kind, webUrl: `https://${host}/${cleaned}` };
}

/** The host of a network remote (`https://`, `ssh://`, `git://`, `user@host:path`); undefined for a server path. */
export function parseRemote(
  remote: string,
): { hostname: string; host: string; path: string; web: boolean } | undefined {
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(remote);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol)) return undefined;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const web = url.protocol === 'https:' || url.protocol === 'http:';
    return { hostname, host: url.host, path: url.pathname, web };
  }
  if (scp && !remote.startsWith('/')) return { hostname: scp[1], host: scp[1], path: scp[2], web: false };
  return undefined;
}

function guessForge(host: string): Forge | undefined {
  const h = host.toLowerCase();
  if (h === 'github.com' || h.startsWith('github.')) return 'github';
  if (h === 'gitlab.com' || h.startsWith('gitlab.')) return 'gitlab';
  if (h === 'bitbucket.org') return 'bitbucket';
  if (h === 'codeberg.org' || h.startsWith('gitea.') || h.startsWith('forgejo.')) return 'gitea';
  return undefined;
}

/** The forge's view of a file at a commit. */
export function fileViewUrl(repository: ForgeRepository, commit: string, path: string): string {
  const file = path.split('/').map(encodeURIComponent).join('/');
  switch (repository.forge) {
    case 'github':
      return `${repository.webUrl}/blob/${commit}/${file}`;
    case 'gitlab':
      return `${repository.webUrl}/-/blob/${commit}/${file}`;
    case 'gitea':
      return `${repository.webUrl}/src/commit/${commit}/${file}`;
    case 'bitbucket':
      return `${repository.webUrl}/src/${commit}/${file}`;
  }
}
