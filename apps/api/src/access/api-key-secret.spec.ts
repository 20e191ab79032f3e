import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskedApiKey, newApiKeySecret, parseApiKey, secretMatches } from './api-key-secret';

describe('API key secrets', () => {
  it('carry a recognisable prefix, the record id and 256 random bits; only the hash matches', () => {
    const id = randomUUID();
    const { token, secretSha256 } = newApiKeySecret(id);
    expect(token).toMatch(/^trove_[0-9a-f]{32}_[\w-]{43}$/);
    const parsed = parseApiKey(token)!;
    expect(parsed.id).toBe(id);
    expect(secretMatches(parsed.secret, secretSha256)).toBe(true);
    expect(token).not.toContain(secretSha256.toString('hex'));
    const other = newApiKeySecret(id);
    expect(other.token).not.toBe(token);
    expect(secretMatches(parsed.secret, other.secretSha256)).toBe(false);
  });

  it('reject anything not in the format, and a hash of another size', () => {
    const { token, secretSha256 } = newApiKeySecret(randomUUID());
    for (const bad of ['', 'trove_', `${token}x`, token.slice(1), token.replace('trove_', 'TROVE_')]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
    expect(secretMatches(parseApiKey(token)!.secret, secretSha256.subarray(0, 16))).toBe(false);
  });

  it('are listed masked: prefix and the start of the id only', () => {
    expect(maskedApiKey('0123abcd-0000-4000-8000-000000000000')).toBe('trove_0123abcd…');
  });
});
