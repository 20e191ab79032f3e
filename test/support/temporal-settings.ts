import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './services';

/** Trove's settings for the Temporal server: the compose file's Temporal reads this file. */
export const TEMPORAL_DYNAMIC_CONFIG = join(ROOT, 'infra', 'temporal', 'dynamic-config.yaml');

/** Each setting of the file with its (global) value. */
export function temporalSettings(): Map<string, unknown> {
  const file = parse(readFileSync(TEMPORAL_DYNAMIC_CONFIG, 'utf8')) as Record<string, { value: unknown }[]>;
  return new Map(Object.entries(file).map(([key, values]) => [key, values[0].value]));
}

/**
 * The settings as the dev server's `--dynamic-config-value` flags, as infra/local/up.sh starts the
 * local Temporal; `without` leaves some out (a server that dispatches first come, first served).
 */
export function devServerFlags(options: { without?: string[] } = {}): string[] {
  const flags: string[] = [];
  for (const [key, value] of temporalSettings()) {
    if (options.without?.includes(key)) continue;
    flags.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  return flags;
}
