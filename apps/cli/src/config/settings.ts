import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../output/exit-codes';
import {
  findTroveYaml,
  readTroveYaml,
  SEARCH_MODES,
  type SearchModeName,
  type TroveYaml,
} from './trove-yaml';

export const DEFAULT_API_URL = 'http://127.0.0.1:4000';

/** Where a setting came from, so `trove config get cli` can say why a value applies. */
export type SettingOrigin = 'flag' | 'env' | 'file' | 'default';

export interface Setting<T> {
  value: T;
  from: SettingOrigin;
  /** The variable or file it came from. */
  detail?: string;
}

export interface CliSettings {
  apiUrl: Setting<string>;
  apiKey?: Setting<string>;
  project?: Setting<string>;
  mode: Setting<SearchModeName>;
  /** The .trove.yaml that applied, if any. */
  file?: string;
}

export interface SettingFlags {
  apiUrl?: string;
  apiKey?: string;
  project?: string;
}

/**
 * Flags first, then TROVE_API_URL / TROVE_API_KEY / TROVE_PROJECT, then the nearest .trove.yaml
 * (its `apiKeyFile` read relative to the file), then the defaults.
 */
export function resolveSettings(
  flags: SettingFlags,
  env: NodeJS.ProcessEnv,
  cwd: string,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): CliSettings {
  const file = findTroveYaml(cwd);
  const yaml: TroveYaml = file ? readTroveYaml(file, readFile(file)) : {};
  const fromFile = <T>(value: T | undefined): Setting<T> | undefined =>
    value === undefined ? undefined : { value, from: 'file', detail: file };

  const apiUrl = pick(flags.apiUrl, 'flag', '--api-url') ??
    pick(env.TROVE_API_URL, 'env', 'TROVE_API_URL') ??
    fromFile(yaml.apiUrl) ?? { value: DEFAULT_API_URL, from: 'default' as const };
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl.value)) {
    throw new UsageError(`${apiUrl.detail ?? 'the API URL'}: "${apiUrl.value}" is not an http(s) URL`);
  }

  let apiKey = pick(flags.apiKey, 'flag', '--api-key') ?? pick(env.TROVE_API_KEY, 'env', 'TROVE_API_KEY');
  if (!apiKey && yaml.apiKeyFile) {
    const keyFile = expandPath(yaml.apiKeyFile, dirname(file!));
    let key: string;
    try {
      key = readFile(keyFile).trim();
    } catch (error) {
      throw new UsageError(
        `${file}: apiKeyFile: cannot read ${keyFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        'BAD_CONFIG',
      );
    }
    if (!key) throw new UsageError(`${file}: apiKeyFile: ${keyFile} is empty`, 'BAD_CONFIG');
    apiKey = { value: key, from: 'file', detail: keyFile };
  }

  const project =
    pick(flags.project, 'flag', '--project') ??
    pick(env.TROVE_PROJECT, 'env', 'TROVE_PROJECT') ??
    fromFile(yaml.project);

  const mode = fromFile(yaml.mode) ?? { value: 'HYBRID' as const, from: 'default' as const };
  return { apiUrl: { ...apiUrl, value: apiUrl.value.replace(/\/+$/, '') }, apiKey, project, mode, file };
}

function pick(value: string | undefined, from: SettingOrigin, detail: string): Setting<string> | undefined {
  const trimmed = value?.trim();
  return trimmed ? { value: trimmed, from, detail } : undefined;
}

function expandPath(path: string, base: string): string {
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : join(base, path);
}

/** A secret for display: its first characters, then an ellipsis. */
export function maskSecret(secret: string): string {
  return secret.length <= 10 ? '…' : `${secret.slice(0, Math.min(14, Math.floor(secret.length / 3)))}…`;
}

export function parseSearchMode(value: string): SearchModeName {
  const upper = value.trim().toUpperCase();
  if (!(SEARCH_MODES as readonly string[]).includes(upper)) {
    throw new UsageError(`mode must be one of ${SEARCH_MODES.join(', ')}, not "${value}"`);
  }
  return upper as SearchModeName;
}
