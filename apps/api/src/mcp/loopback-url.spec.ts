import { describe, expect, it } from 'vitest';
import { loopbackUrl } from './loopback-url';

describe('loopbackUrl', () => {
  it('uses the configured host, or loopback when the api listens on every interface', () => {
    expect(loopbackUrl('127.0.0.1', 4000)).toBe('http://127.0.0.1:4000');
    expect(loopbackUrl('10.0.0.5', 4100)).toBe('http://10.0.0.5:4100');
    expect(loopbackUrl('0.0.0.0', 4000)).toBe('http://127.0.0.1:4000');
    expect(loopbackUrl('::', 4000)).toBe('http://127.0.0.1:4000');
  });

  it('brackets IPv6 addresses', () => {
    expect(loopbackUrl('::1', 4000)).toBe('http://[::1]:4000');
    expect(loopbackUrl('[::1]', 4000)).toBe('http://[::1]:4000');
  });
});
