import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OIDC_PROVIDER_SETTINGS } from '@trove/config';
import { ROOT } from './services';

/**
 * Every `TROVE_*` variable the apps read: the shared configuration (`libs/config`) and the
 * settings a connector lib reads itself (`libs/connectors/<name>/src/*.settings.ts`).
 */
export function troveVariables(): Set<string> {
  const files = [join(ROOT, 'libs/config/src/config.ts')];
  const connectors = join(ROOT, 'libs/connectors');
  for (const lib of readdirSync(connectors)) {
    const src = join(connectors, lib, 'src');
    for (const file of readdirSync(src)) if (file.endsWith('.settings.ts')) files.push(join(src, file));
  }
  return new Set(files.flatMap((file) => readFileSync(file, 'utf8').match(/TROVE_[A-Z0-9_]+/g) ?? []));
}

/** A provider's own setting (TROVE_OIDC_<ID>_ISSUER, …): read for each id TROVE_OIDC_PROVIDERS names. */
export function isProviderSetting(name: string): boolean {
  return OIDC_PROVIDER_SETTINGS.some((setting) =>
    new RegExp(`^TROVE_OIDC_[A-Z][A-Z0-9_]*_${setting}$`).test(name),
  );
}
