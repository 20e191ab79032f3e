import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv4MappedAddress, isLoopbackAddress } from './addresses';

/** Who may read `/metrics`: holders of the token; without one, nobody unless loopback is allowed. */
export interface MetricsAccessOptions {
  /** TROVE_METRICS_TOKEN. */
  token?: string;
  /** TROVE_METRICS_ALLOW_LOOPBACK: without a token, loopback clients may read them. Default off. */
  allowLoopback?: boolean;
}

/** `off`: no token and loopback not allowed; `forbidden`: loopback allowed, but this client is not on it. */
export type MetricsAccessDecision = 'allowed' | 'unauthenticated' | 'forbidden' | 'off';

/**
 * With a token: `Authorization: Bearer <token>` is required (from any address), compared in
 * constant time. Without: off, unless loopback clients (the machine itself, or a sidecar sharing
 * its network namespace) are explicitly allowed. A reverse proxy on the same host reaches us from
 * loopback too, so loopback alone is no proof of a trusted scraper.
 */
export function metricsAccess(
  options: MetricsAccessOptions,
  request: { authorization?: string | string[]; remoteAddress?: string },
): MetricsAccessDecision {
  if (options.token) {
    const header = Array.isArray(request.authorization) ? request.authorization[0] : request.authorization;
    const presented = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    if (presented === undefined) return 'unauthenticated';
    return sameSecret(presented, options.token) ? 'allowed' : 'unauthenticated';
  }
  if (!options.allowLoopback) return 'off';
  const address = request.remoteAddress ?? '';
  return isLoopbackAddress(address) || isIPv4MappedAddress(address, isLoopbackAddress)
    ? 'allowed'
    : 'forbidden';
}

/** Equal-length digests compared in constant time: neither the length nor a prefix leaks. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
