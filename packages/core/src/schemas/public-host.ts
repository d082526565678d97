import { BlockList, isIP } from 'node:net';

/**
 * Addresses a payment service on the internet cannot reach, or must not be
 * pointed at: loopback, private, carrier-grade NAT, link-local, multicast and
 * reserved ranges, and their IPv6 counterparts.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

/** True when `hostname` (as `URL.hostname` gives it) names a host on the public internet. */
export function isPublicHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const version = isIP(host);
  if (version === 4) return !nonPublic.check(host, 'ipv4');
  if (version === 6) {
    const mapped = ipv4MappedAddress(host);
    return mapped === undefined ? !nonPublic.check(host, 'ipv6') : !nonPublic.check(mapped, 'ipv4');
  }
  if (host === 'localhost' || !host.includes('.')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** `::ffff:7f00:1` (how URL normalises `::ffff:127.0.0.1`) → `127.0.0.1`. */
function ipv4MappedAddress(host: string): string | undefined {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!match) return undefined;
  const high = parseInt(match[1] ?? '0', 16);
  const low = parseInt(match[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for a loopback host: the only plain-HTTP target allowed, and only in local development. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
