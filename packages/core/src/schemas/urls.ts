// Callback URL rules and the public-host check.
import * as z from 'zod/mini';

/*
 * Which hosts a payment service on the internet can be pointed at. Pure, with
 * no import, and portable (addresses are parsed here, not by node:net): the
 * same answers on every runtime, and @paymount/sandbox bundles this file into
 * its own build, so the service's emulator judges a notifyUrl exactly as the
 * client does.
 */

/**
 * IPv4 blocks that are not globally reachable (the IANA IPv4 Special-Purpose
 * Address Registry), plus multicast and the reserved 240/4.
 */
const NON_PUBLIC_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast address
];

/** Blocks inside global unicast (2000::/3) that are not globally reachable. */
const NON_PUBLIC_IPV6: ReadonlyArray<readonly [string, number]> = [
  // IETF protocol assignments: Teredo (2001::/32, a tunnel whose real end cannot
  // be judged from the address), benchmarking (2001:2::/48), ORCHID.
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

/** A block as its first address's bits (IPv4: one 32-bit number; IPv6: eight 16-bit groups) and its prefix length. */
interface Block {
  groups: readonly number[];
  prefix: number;
}

/** True when the first `prefix` bits of `address` and `block` agree; both are lists of `bits`-bit groups. */
function inBlock(address: readonly number[], { groups, prefix }: Block, bits: number): boolean {
  for (let i = 0, left = prefix; left > 0; i++, left -= bits) {
    const shift = Math.max(bits - left, 0);
    if (Math.floor((address[i] ?? 0) / 2 ** shift) !== Math.floor((groups[i] ?? 0) / 2 ** shift)) return false;
  }
  return true;
}

const nonPublicIpv4: readonly Block[] = NON_PUBLIC_IPV4.map(([network, prefix]) => ({ groups: [ipv4Number(network)], prefix }));
const nonPublicIpv6: readonly Block[] = NON_PUBLIC_IPV6.map(([network, prefix]) => ({ groups: ipv6Groups(network), prefix }));

/** A dotted-decimal IPv4 address as one unsigned 32-bit number. */
function ipv4Number(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function isPublicIpv4(address: string): boolean {
  const value = [ipv4Number(address)];
  return !nonPublicIpv4.some((block) => inBlock(value, block, 32));
}

/** A URL writes an IPv4 host in dotted decimal, four numbers: no domain name has that form (a numeric last label makes it an IPv4 literal). */
const DOTTED_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Special-use and private-use domains (RFC 6761, 6762, 7686, 8375, 9476; ICANN's .internal). */
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.localdomain',
  '.internal',
  '.home.arpa',
  '.test',
  '.invalid',
  '.example',
  '.onion',
  '.alt',
];

/**
 * True when `hostname` names a host on the public internet. Any spelling a URL
 * accepts is judged as the URL would connect: `0x7f.1`, `2130706433` and
 * `127.1` are 127.0.0.1. An IPv6 address that stands for an IPv4 one
 * (IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is
 * judged by that IPv4 address; otherwise only global unicast (2000::/3) outside
 * the special-purpose blocks is public, which leaves out `::/8` (unspecified,
 * loopback, IPv4-compatible), local NAT64 `64:ff9b:1::/48`, `fc00::/7`,
 * `fe80::/10`, multicast and the rest. A name is judged by its suffix only: one
 * that resolves to a private address is not caught here.
 */
export function isPublicHostname(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return host !== undefined && isPublicCanonicalHost(host);
}

/** isPublicHostname of a parsed URL's host, which the URL already wrote in canonical form: no second parse. */
export function isPublicUrlHost(url: URL): boolean {
  return isPublicCanonicalHost(url.hostname.replace(/\.$/, ''));
}

function isPublicCanonicalHost(host: string): boolean {
  if (host.startsWith('[')) return isPublicIpv6(host.slice(1, -1));
  if (DOTTED_IPV4.test(host)) return isPublicIpv4(host);
  if (host === 'localhost' || !host.includes('.')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * The host as a URL writes it (lower case, IPv4 in dotted decimal, IPv6 in
 * brackets with hex groups), without a trailing dot; undefined when no URL can
 * hold it.
 */
function canonicalHost(hostname: string): string | undefined {
  if (hostname === '' || /[/?#@\\\s]/.test(hostname)) return undefined;
  const literal = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return URL.parse(`http://${literal}/`)?.hostname.replace(/\.$/, '');
}

function isPublicIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== undefined) return isPublicIpv4(ipv4);
  return ((groups[0] ?? 0) & 0xe000) === 0x2000 && !nonPublicIpv6.some((block) => inBlock(groups, block, 16));
}

/** The eight 16-bit groups of an IPv6 address as URL writes it (hex groups, `::` at most once). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const split = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const before = split(head);
  const after = split(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The IPv4 address an IPv6 one carries: IPv4-mapped, NAT64 well-known prefix, or 6to4. */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zeroUpTo5 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroUpTo5 && g5 === 0xffff) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  if (g0 === 0x2002) return dotted(g1 ?? 0, g2 ?? 0);
  return undefined;
}

function dotted(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for a loopback host: the only plain-HTTP target allowed, and only in local development. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Validation context shared by the request schemas. */
export interface SchemaContext {
  /** Allows plain HTTP and non-public hosts in callback URLs, for a merchant app and sandbox on one machine. */
  localDevelopment?: boolean;
}

const NOT_A_URL = { rule: 'url', message: 'must be an absolute http(s) URL' } as const;
const NOT_PUBLIC_HTTPS = {
  rule: 'public_https',
  message:
    'must be public HTTPS (no http://, loopback, private, link-local or .local host); pass localDevelopment: true to the client only when working against a local sandbox',
} as const;

/** Which rule of a callback URL `value` breaks, if any: the URL is parsed once for both. */
function brokenRule(value: string, context: SchemaContext): typeof NOT_A_URL | typeof NOT_PUBLIC_HTTPS | undefined {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return NOT_A_URL;
  if (context.localDevelopment || (url.protocol === 'https:' && isPublicUrlHost(url))) return undefined;
  return NOT_PUBLIC_HTTPS;
}

/**
 * An absolute callback URL the service will call or send the customer to.
 * Outside local development it must be HTTPS on a public host: the service
 * cannot reach a loopback or private address, and a webhook over plain HTTP
 * could be read or forged on the way.
 */
export function callbackUrlSchema(maxLength: number, context: SchemaContext = {}) {
  return z.string().check(
    z.maxLength(maxLength, `must be at most ${maxLength} characters`),
    (payload) => {
      const broken = brokenRule(payload.value, context);
      if (broken === undefined) return;
      // Not a URL at all aborts: no further rule can be judged on it.
      payload.issues.push({
        code: 'custom',
        input: payload.value,
        message: broken.message,
        params: { rule: broken.rule },
        continue: broken !== NOT_A_URL,
      });
    },
  );
}
