import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32).toString('base64'));

  it('round-trips and never stores the plain text', () => {
    const sealed = box.encrypt('ntn_secret_token_value');
    expect(sealed).not.toContain('ntn_secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.decrypt(sealed)).toBe('ntn_secret_token_value');
    expect(box.encrypt('same')).not.toBe(box.encrypt('same')); // fresh IV each time
  });

  it('rejects tampering and a wrong key', () => {
    const sealed = box.encrypt('token');
    // One bit of the ciphertext flipped (editing a base64 character could leave the bytes as they were).
    const [version, iv, tag, data] = sealed.split('.');
    const bytes = Buffer.from(data, 'base64url');
    bytes[0] ^= 1;
    const tampered = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('base64')).decrypt(sealed)).toThrow();
  });

  it('explains a malformed key', () => {
    expect(() => new SecretBox('short')).toThrow(/32 random bytes/);
  });
});
