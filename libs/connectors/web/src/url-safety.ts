import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { TroveError, TroveErrorCode } from '@trove/domain';

/** Resolves a host name to its addresses (injectable so tests can map names to addresses). */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Addresses a URL given by a user must not reach: loopback, private (RFC 1918, unique local),
 * link-local (cloud metadata at 169.254.169.254 among them), carrier-grade NAT, multicast,
 * reserved, and IPv4-mapped IPv6 (which would smuggle any of those).
 */
const PRIVATE_V4 = new BlockList();
// Separate lists: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 subnets.
const PRIVATE_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE_V4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127], // unspecified and loopback
  ['::ffff:0:0', 96],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE_V6.addSubnet(net, prefix, 'ipv6');
}

/** True for an address on a loopback, private, link-local, metadata or reserved network. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE_V4.check(address, 'ipv4');
  if (family === 6) return PRIVATE_V6.check(address, 'ipv6');
  return true; // not an address at all: refuse rather than guess
}

/** A URL refused for safety (scheme, or a host on a private network): permanent. */
export class UnsafeUrlError extends TroveError {
  constructor(message: string) {
    super(TroveErrorCode.BadRequest, message, { permanent: true });
    this.name = 'UnsafeUrlError';
  }
}

/**
 * Refuses a URL that is not http(s) or whose host resolves to a private address (every address
 * the name resolves to is checked, so one public record cannot hide a private one).
 *
 * The check runs before each request and each redirect hop; the request resolves the name again,
 * so a DNS server that answers differently within seconds (rebinding) is not covered.
 */
export async function assertSafeUrl(
  url: URL,
  options: { allowPrivateNetworks: boolean; resolve: ResolveHost },
) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeUrlError(`${url.href}: only http and https URLs can be read`);
  }
  if (url.username || url.password) {
    throw new UnsafeUrlError(`${url.origin}: URLs with credentials are not accepted`);
  }
  if (options.allowPrivateNetworks) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // An unknown name stays unknown on retry; a DNS timeout may not.
      if (code === 'ENOTFOUND' || code === 'ENODATA') {
        throw new TroveError(TroveErrorCode.BadRequest, `${url.host}: no such host`, {
          permanent: true,
          cause: error,
        });
      }
      throw error;
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    throw new UnsafeUrlError(
      `${url.host} resolves to ${blocked}, a private, loopback or link-local address; web sources may ` +
        'only read public addresses (set TROVE_WEB_ALLOW_PRIVATE_NETWORKS=true to allow private networks)',
    );
  }
}
