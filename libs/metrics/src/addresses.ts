import ipaddr from 'ipaddr.js';

/** 127.0.0.0/8 or ::1. */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.parse(address).range() === 'loopback';
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) judged by its IPv4 address. */
export function isIPv4MappedAddress(address: string, test: (ipv4: string) => boolean): boolean {
  if (!ipaddr.IPv6.isValid(address)) return false;
  const parsed = ipaddr.IPv6.parse(address);
  return parsed.isIPv4MappedAddress() && test(parsed.toIPv4Address().toString());
}
