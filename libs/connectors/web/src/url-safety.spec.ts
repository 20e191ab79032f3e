import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { assertSafeUrl, isPrivateAddress, UnsafeUrlError } from './url-safety';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.51.100.7', 'documentation (TEST-NET-2)'],
    ['203.0.113.9', 'documentation (TEST-NET-3)'],
    ['198.18.0.1', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145)'],
    ['64:ff9b::7f00:1', 'NAT64 (RFC 6052)'],
    ['64:ff9b::127.0.0.1', 'NAT64, dotted'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['100::1', 'discard-only'],
    ['not-an-address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80e::200e'])(
    'allows the public address %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('assertSafeUrl', () => {
  const check = (url: string, resolved: string[], allowPrivateNetworks = false) =>
    assertSafeUrl(new URL(url), { allowPrivateNetworks, resolve: async () => resolved }).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('refuses a name that resolves to a documentation address, permanently', async () => {
    const error = await check('http://docs.test/', ['192.0.2.10']);
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).code).toBe(TroveErrorCode.BadRequest);
    expect((error as UnsafeUrlError).message).toMatch(/^docs\.test resolves to 192\.0\.2\.10/);
  });

  it('refuses IPv6 literals that embed an IPv4 address', async () => {
    for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]']) {
      expect(await check(`http://${host}/`, [])).toBeInstanceOf(UnsafeUrlError);
    }
  });

  it('accepts public addresses, and anything when private networks are allowed (local test sites)', async () => {
    expect(await check('http://example.test/', ['93.184.216.34', '2606:2800:220:1::1'])).toBeUndefined();
    expect(await check('http://127.0.0.1:8080/', [], true)).toBeUndefined();
    expect(await check('http://docs.test/', ['192.0.2.10'], true)).toBeUndefined();
  });
});
