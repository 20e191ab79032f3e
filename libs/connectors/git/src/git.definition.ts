import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod/v4';
import {
  configProblem,
  isTroveError,
  type SecretOpener,
  type SourceConfig,
  type SourceDefinition,
} from '@trove/domain';
import { isPrivateAddress } from '@trove/connector-web';
import { resolveAllowedPath } from '@trove/storage';
import { FORGES, parseRemote } from './forge-urls';
import { GIT_SOURCE_TYPE, transportOf } from './git-source';
import { gitWebhook } from './git-webhook';

/** A branch name git accepts and that cannot be read as an option. */
const BRANCH = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[A-Za-z0-9._/-]+(?<![./])$/;

const configSchema = z.strictObject({
  url: z
    .string()
    .trim()
    .min(1)
    .refine((url) => !url.startsWith('-'), 'must be a repository URL or path')
    .describe(
      'The repository: https://…, ssh://… or user@host:path, or a repository folder on this server inside the folders it may read (setting TROVE_FOLDER_ROOTS)',
    ),
  branch: z
    .string()
    .regex(BRANCH, 'not a branch name')
    .optional()
    .describe("The branch to sync; default: the remote's default branch"),
  include: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'gitignore-style patterns of the files to index; default: every file type Trove reads but images (add `*.png` etc. to read them by OCR)',
    ),
  exclude: z.array(z.string().min(1)).default([]).describe('gitignore-style patterns of files to leave out'),
  token: z.string().min(1).optional().describe('https: an access token (sent as the HTTP password)'),
  username: z
    .string()
    .min(1)
    .regex(/^[^:\s]+$/, 'no colon or spaces')
    .optional()
    .describe('https: the user name sent with the token (default x-access-token)'),
  deployKey: z.string().min(1).optional().describe('ssh: a private key (a deploy key), PEM or OpenSSH'),
  webhookSecret: z
    .string()
    .min(16, 'use at least 16 characters')
    .optional()
    .describe('Push webhooks: the secret given to the forge'),
  maxRepositoryMb: z
    .number()
    .int()
    .positive()
    .max(100_000)
    .default(500)
    .describe('A clone larger than this fails the sync'),
  forge: z
    .enum(FORGES)
    .optional()
    .describe("A self-hosted remote's forge, for citation links (github.com, gitlab.com, … are recognised)"),
});

export interface GitDefinitionSettings {
  /** Server-side folders a repository path may be in (TROVE_FOLDER_ROOTS). */
  folderRoots: readonly string[];
  /** `http://` and `git://` remotes allowed (tests, private networks). */
  allowInsecure: boolean;
  /** Remotes on loopback, private and link-local addresses allowed; off: the API refuses them. */
  allowPrivateNetworks: boolean;
  /** How host names are resolved for that check; DNS by default. */
  resolve?: (host: string) => Promise<string[]>;
  secrets?: SecretOpener;
}

/** A branch of a Git repository; push webhooks of GitHub, GitLab and Gitea/Forgejo keep it current. */
export function gitSourceDefinition(settings: GitDefinitionSettings): SourceDefinition {
  return {
    type: GIT_SOURCE_TYPE,
    label: 'Git repository',
    description:
      'A branch of a Git repository: Markdown, MkDocs projects, PDF and other documents; push webhooks sync changes.',
    configSchema,
    secretFields: ['token', 'deployKey', 'webhookSecret'],
    async prepare(config: SourceConfig): Promise<SourceConfig> {
      const parsed = config as z.output<typeof configSchema>;
      let url = parsed.url;
      const transport = transportOf(url);
      if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(url) && transport !== 'ssh') {
        throw configProblem(GIT_SOURCE_TYPE, 'url', 'no credentials in the URL: give the token in `token`');
      }
      if ((transport === 'http' || transport === 'git') && !settings.allowInsecure) {
        throw configProblem(
          GIT_SOURCE_TYPE,
          'url',
          `${transport}:// has no transport security; use https:// or ssh (or set TROVE_GIT_ALLOW_INSECURE)`,
        );
      }
      if (parsed.token !== undefined && transport !== 'https' && transport !== 'http') {
        throw configProblem(GIT_SOURCE_TYPE, 'token', 'a token is sent over https only');
      }
      if (parsed.deployKey !== undefined && transport !== 'ssh') {
        throw configProblem(GIT_SOURCE_TYPE, 'deployKey', 'a deploy key is used over ssh only');
      }
      if (transport !== 'local' && !settings.allowPrivateNetworks) {
        await checkPublicHost(url, settings.resolve ?? resolveWithDns);
      }
      if (transport === 'local') {
        try {
          url = await resolveAllowedPath(url.replace(/^file:\/\//, ''), [...settings.folderRoots]);
        } catch (error) {
          if (isTroveError(error)) throw configProblem(GIT_SOURCE_TYPE, 'url', error.message);
          throw error;
        }
      }
      const prepared: SourceConfig = { ...parsed, url };
      for (const [key, value] of Object.entries(prepared)) if (value === undefined) delete prepared[key];
      return prepared;
    },
    summarize(config: SourceConfig): string {
      const { url, branch } = config as { url?: string; branch?: string };
      return `${url ?? '?'}${branch ? ` (branch ${branch})` : ''}`;
    },
    webhook: gitWebhook(settings.secrets),
  };
}

async function resolveWithDns(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}

/**
 * Refuses a remote whose host is, or resolves to, a loopback, private or link-local address: a
 * source must not make the worker reach into its own network. Checked when the source is
 * configured; git resolves the name again when it connects.
 */
async function checkPublicHost(url: string, resolve: (host: string) => Promise<string[]>): Promise<void> {
  const remote = parseRemote(url);
  if (!remote) throw configProblem(GIT_SOURCE_TYPE, 'url', 'not a repository URL');
  let addresses: string[];
  if (isIP(remote.hostname)) {
    addresses = [remote.hostname];
  } else {
    try {
      addresses = await resolve(remote.hostname);
    } catch {
      throw configProblem(GIT_SOURCE_TYPE, 'url', `${remote.hostname}: no such host`);
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    throw configProblem(
      GIT_SOURCE_TYPE,
      'url',
      `${remote.hostname} is a private network address (${blocked}); set TROVE_GIT_ALLOW_PRIVATE_NETWORKS to allow it`,
    );
  }
}
