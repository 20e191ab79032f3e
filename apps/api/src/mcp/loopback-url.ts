import { isIPv6 } from 'node:net';

/**
 * The api's own base URL as seen from inside its process: the configured host (loopback when it
 * listens on every interface) and the port the request came in on (right even when the
 * configured port was 0).
 */
export function loopbackUrl(host: string, port: number): string {
  const wildcard = host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
  const address = wildcard ? '127.0.0.1' : host.replace(/^\[(.*)\]$/, '$1');
  return `http://${isIPv6(address) ? `[${address}]` : address}:${port}`;
}
