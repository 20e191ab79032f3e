import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Notion accepts ids with or without dashes, in any case; it always answers dashed and lowercase. */
export function normalizeId(id: string): string | undefined {
  if (!UUID.test(id)) return undefined;
  const hex = id.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function compactId(id: string): string {
  return id.replace(/-/g, '');
}

/** A stable, v4-shaped UUID derived from a label, so generated fixtures are identical on every run. */
export function stableId(label: string): string {
  const hex = createHash('sha1').update(label).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return normalizeId(`${hex.slice(0, 12)}4${hex.slice(13, 16)}${variant}${hex.slice(17, 32)}`)!;
}

/**
 * Notion's property ids are four URL-encoded characters (`title` for the title property), e.g. `%3AUPp`.
 * Clients must treat them as opaque, so the emulator makes them look the same.
 */
export function stablePropertyId(label: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:;<=>?@[]^_`{|}~';
  const digest = createHash('sha1').update(label).digest();
  let raw = '';
  for (let i = 0; i < 4; i++) raw += alphabet[digest[i] % alphabet.length];
  return encodeURIComponent(raw);
}

/** Timestamps in the API are rounded down to the minute. */
export function floorToMinute(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

export function isoMinute(ms: number): string {
  return new Date(floorToMinute(ms)).toISOString();
}
