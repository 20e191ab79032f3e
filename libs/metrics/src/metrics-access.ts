import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv4MappedAddress, isLoopbackAddress } from './addresses';

/** Who may read `/metrics`: holders of the token, or (no token configured) loopback clients only. */
export interface MetricsAccessOptions {
  /** TROVE_METRICS_TOKEN; unset: loopback only. */
  token?: string;
}

export type MetricsAccessDecision = 'allowed' | 'unauthenticated' | 'forbidden';

/**
 * With a token: `Authorization: Bearer <token>` is required (from any address), compared in
 * constant time. Without: only a client on the loopback interface (the machine itself, or a
 * sidecar sharing its network namespace) is let in.
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
