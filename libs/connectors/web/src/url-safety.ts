import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { TroveError, TroveErrorCode } from '@trove/domain';

/** Resolves a host name to its addresses (injectable so tests can map names to addresses). */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * IPv6 global unicast (2000::/3): the only IPv6 space routed on the internet. Anything outside it
 * that ipaddr.js still calls unicast (the IPv4-compatible ::/96 among others) is refused.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * True unless the address is a globally routable unicast address. ipaddr.js keeps the IANA
 * special-purpose registries, so this refuses loopback, private (RFC 1918, unique local),
 * link-local (cloud metadata at 169.254.169.254 among them), carrier-grade NAT, documentation,
 * benchmarking, multicast, broadcast and reserved ranges, and every IPv6 form that embeds an IPv4
 * address (mapped, compatible, translated, NAT64, 6to4, Teredo), which would smuggle any of those.
 */
export function isPrivateAddress(address: string): boolean {
  // node:net's check first: ipaddr.js also parses legacy IPv4 spellings such as "127.1".
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  if (family === 4) return ipaddr.IPv4.parse(address).range() !== 'unicast';
  const v6 = ipaddr.IPv6.parse(address);
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST_V6);
}

/** A URL refused for safety (scheme, or a host on a private network): permanent. */
export class UnsafeUrlError extends TroveError {
  constructor(message: string) {
    super(TroveErrorCode.BadRequest, message, { permanent: true });
    this.name = 'UnsafeUrlError';
  }
}

/** Whether an error is (or was caused by) a refusal of an unsafe URL or address. */
export function unsafeUrlErrorIn(error: unknown): UnsafeUrlError | undefined {
  if (error instanceof UnsafeUrlError) return error;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof UnsafeUrlError ? cause : undefined;
}

/** `what` says which name gave which private address, and when. */
function privateAddressError(what: string) {
  return new UnsafeUrlError(
    `${what}, a private, loopback, link-local or reserved address; web sources may ` +
      'only read public addresses (set TROVE_WEB_ALLOW_PRIVATE_NETWORKS=true to allow private networks)',
  );
}

/**
 * Refuses a URL that is not http(s) or whose host resolves to a private address (every address
 * the name resolves to is checked, so one public record cannot hide a private one).
 *
 * The check runs before each request and each redirect hop, and gives the clear early error. The
 * connection resolves the name again, so it must go through {@link checkedFetch}, whose lookup
 * applies the same rule to the addresses it connects to: a DNS server that answers a public
 * address to the check and a private one to the connection (rebinding) reaches nothing.
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
  if (blocked !== undefined) throw privateAddressError(`${url.host} resolves to ${blocked}`);
}

/**
 * A `dns.lookup` replacement for sockets: resolves with `resolve` and, unless private networks are
 * allowed, fails the connection when any address is private. The socket connects only to the
 * addresses returned here, so the address connected to is always one that passed this check.
 */
export function checkedLookup(options: {
  allowPrivateNetworks: boolean;
  resolve: ResolveHost;
}): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family =
      lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family || 0;
    options.resolve(hostname).then(
      (resolved) => {
        const blocked = options.allowPrivateNetworks ? undefined : resolved.find(isPrivateAddress);
        if (blocked !== undefined) {
          callback(privateAddressError(`${hostname} resolved to ${blocked} when connecting`), '');
          return;
        }
        const addresses = resolved
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (family === 0 || a.family === family));
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname}: no usable address`);
          error.code = 'ENOTFOUND';
          callback(error, '');
        } else if (lookupOptions.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/**
 * A `fetch` whose connections resolve host names through {@link checkedLookup} (undici, so the
 * socket's lookup can be replaced; TLS still sends the host name for SNI and certificate checks).
 * A refused address fails the request with a `TypeError` whose cause is the {@link UnsafeUrlError}.
 */
export function checkedFetch(options: { allowPrivateNetworks: boolean; resolve: ResolveHost }): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(options) } });
  // undici's own Request/Response types differ from the DOM lib's in details WebHttp does not use.
  return ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
}
