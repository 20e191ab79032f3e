/**
 * Variables whose values are secrets (TROVE_SECRET_KEY, TROVE_ADMIN_API_KEY, the providers' API
 * keys, the object store's access keys, and any future *_TOKEN, *_SECRET or *_PASSWORD): never
 * written into a backup unless asked for.
 */
const SECRET_NAME = /_(KEY|TOKEN|SECRET|PASSWORD)$|^TROVE_S3_ACCESS_KEY_ID$/;

/** The CLI's own client settings: they describe this terminal, not the install. */
const CLIENT_ONLY = new Set(['TROVE_API_URL', 'TROVE_API_KEY', 'TROVE_PROJECT', 'TROVE_DEBUG']);

export interface ExportedConfig {
  /** `NAME=value` lines, sorted, for an env file. */
  text: string;
  /** Names set but left out (secrets) or written without their password (URLs). */
  omitted: string[];
}

/**
 * The install's settings as an env file: every TROVE_* variable of `env` except the CLI's own;
 * secrets (names ending in _KEY, _TOKEN, _SECRET or _PASSWORD) left out and passwords cut from URLs unless
 * `includeSecrets`.
 */
export function exportConfig(env: NodeJS.ProcessEnv, includeSecrets: boolean): ExportedConfig {
  const lines: string[] = [];
  const omitted: string[] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (!name.startsWith('TROVE_') || CLIENT_ONLY.has(name) || value === undefined || value === '') continue;
    if (!includeSecrets && SECRET_NAME.test(name)) {
      omitted.push(name);
      continue;
    }
    const written = includeSecrets ? value : withoutPasswords(value);
    if (written !== value) omitted.push(name);
    lines.push(`${name}=${quote(written)}`);
  }
  return { text: lines.map((line) => `${line}\n`).join(''), omitted };
}

/** A URL (or comma-separated URLs) with any password replaced by `REDACTED`. */
function withoutPasswords(value: string): string {
  return value
    .split(',')
    .map((part) => {
      try {
        const url = new URL(part.trim());
        if (!url.password) return part;
        url.password = 'REDACTED';
        return url.toString();
      } catch {
        return part;
      }
    })
    .join(',');
}

/** Single-quoted when needed, as a shell and docker compose's env files read it. */
function quote(value: string): string {
  return /^[A-Za-z0-9_./:@,+=-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
