import { describe, expect, it } from 'vitest';
import { isPublicHostname } from '../src/entries/schemas';
import { isPublicUrlHost } from '../src/entries/internal';

/** [host, why it is not public] */
const NOT_PUBLIC: ReadonlyArray<readonly [string, string]> = [
  // names
  ['localhost', 'loopback name'],
  ['LOCALHOST.', 'loopback name, upper case with a trailing dot'],
  ['app.localhost', '.localhost'],
  ['printer.local', 'mDNS .local'],
  ['db.internal', '.internal'],
  ['box.localdomain', '.localdomain'],
  ['nas.home.arpa', '.home.arpa'],
  ['shop.test', '.test'],
  ['shop.invalid', '.invalid'],
  ['shop.example', '.example'],
  ['hidden.onion', '.onion'],
  ['intranet', 'single label'],
  ['', 'empty'],
  ['evil.com@127.0.0.1', 'not a host name'],
  // IPv4 special-purpose blocks
  ['0.0.0.0', '0/8 this network'],
  ['0.1.2.3', '0/8 this network'],
  ['10.0.0.1', '10/8 private'],
  ['100.64.0.1', '100.64/10 CGNAT'],
  ['100.127.255.254', '100.64/10 CGNAT'],
  ['127.0.0.1', '127/8 loopback'],
  ['127.8.9.10', '127/8 loopback'],
  ['169.254.169.254', '169.254/16 link-local (cloud metadata)'],
  ['172.16.0.1', '172.16/12 private'],
  ['172.31.255.255', '172.16/12 private'],
  ['192.0.0.8', '192.0.0/24 IETF protocol assignments'],
  ['192.0.2.10', '192.0.2/24 TEST-NET-1'],
  ['192.88.99.1', '192.88.99/24 deprecated 6to4 relay'],
  ['192.168.0.1', '192.168/16 private'],
  ['198.18.0.1', '198.18/15 benchmarking'],
  ['198.19.255.254', '198.18/15 benchmarking'],
  ['198.51.100.7', '198.51.100/24 TEST-NET-2'],
  ['203.0.113.9', '203.0.113/24 TEST-NET-3'],
  ['224.0.0.1', '224/4 multicast'],
  ['239.255.255.250', '224/4 multicast'],
  ['240.0.0.1', '240/4 reserved'],
  ['255.255.255.255', 'limited broadcast'],
  // IPv4 spellings a URL accepts
  ['0x7f.1', 'hex 127.0.0.1'],
  ['2130706433', 'decimal 127.0.0.1'],
  ['0177.0.0.1', 'octal 127.0.0.1'],
  ['127.1', 'short 127.0.0.1'],
  ['0xa9fea9fe', 'hex 169.254.169.254'],
  // IPv6 special-purpose blocks
  ['[::]', 'unspecified'],
  ['[::1]', 'loopback'],
  ['::1', 'loopback without brackets'],
  ['[::7f00:1]', 'IPv4-compatible 127.0.0.1'],
  ['[::127.0.0.1]', 'IPv4-compatible, dotted'],
  ['[::808:808]', 'IPv4-compatible (deprecated, ::/8)'],
  ['[::ffff:7f00:1]', 'IPv4-mapped 127.0.0.1'],
  ['[::ffff:127.0.0.1]', 'IPv4-mapped, dotted'],
  ['[::ffff:a00:1]', 'IPv4-mapped 10.0.0.1'],
  ['[::ffff:c612:1]', 'IPv4-mapped 198.18.0.1'],
  ['[::ffff:0:a00:1]', 'IPv4-translated (::/8)'],
  ['[64:ff9b::a00:1]', 'NAT64 of 10.0.0.1'],
  ['[64:ff9b::127.0.0.1]', 'NAT64 of 127.0.0.1, dotted'],
  ['[64:ff9b:1::808:808]', 'local-use NAT64 64:ff9b:1::/48'],
  ['[100::1]', 'discard-only 100::/64'],
  ['[2001::1]', 'Teredo 2001::/32'],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'Teredo'],
  ['[2001:2::1]', 'benchmarking 2001:2::/48'],
  ['[2001:db8::1]', 'documentation 2001:db8::/32'],
  ['[3fff::1]', 'documentation 3fff::/20'],
  ['[2002:7f00:1::]', '6to4 of 127.0.0.1'],
  ['[2002:a00:1::1]', '6to4 of 10.0.0.1'],
  ['[2002:c633:6401::1]', '6to4 of 198.51.100.1'],
  ['[5f00::1]', 'SRv6 SIDs (outside 2000::/3)'],
  ['[fc00::1]', 'unique local fc00::/7'],
  ['[fd12:3456::1]', 'unique local fc00::/7'],
  ['[fe80::1]', 'link-local fe80::/10'],
  ['[fec0::1]', 'site-local (deprecated)'],
  ['[ff02::1]', 'multicast'],
];

const PUBLIC: readonly string[] = [
  'shop.example.com',
  'example.com.',
  'api.shop.co.uk',
  'xn--bcher-kva.example.com',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '172.15.255.255',
  '100.128.0.1',
  '198.20.0.1',
  '192.0.3.1',
  '[2001:4860:4860::8888]',
  '[2606:4700::1111]',
  '[::ffff:808:808]',
  '[64:ff9b::808:808]',
  '[2002:808:808::1]',
];

describe('isPublicHostname', () => {
  it.each(NOT_PUBLIC)('%s is not public (%s)', (host) => {
    expect(isPublicHostname(host)).toBe(false);
  });

  it.each(PUBLIC)('%s is public', (host) => {
    expect(isPublicHostname(host)).toBe(true);
  });

  it('judges hosts as URL writes them', () => {
    expect(isPublicHostname(new URL('https://[::ffff:127.0.0.1]/').hostname)).toBe(false);
    expect(isPublicHostname(new URL('https://0x7f.1/').hostname)).toBe(false);
    expect(isPublicHostname(new URL('https://[64:ff9b::10.0.0.1]/').hostname)).toBe(false);
  });
});

describe('isPublicUrlHost: the judgement of a parsed URL, without parsing its host again', () => {
  const hosts = [...NOT_PUBLIC.map(([host]) => host), ...PUBLIC];
  // A bare IPv6 host is written in brackets in a URL.
  const urlOf = (host: string) => URL.parse(`https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`);

  it.each(hosts.filter((host) => urlOf(host) !== null))('%s: agrees with isPublicHostname', (host) => {
    const url = urlOf(host) as URL;
    expect(isPublicUrlHost(url)).toBe(isPublicHostname(host));
  });
});

describe('isPublicHostname: IPv4-mapped IPv6 and block edges, parsed without node:net', () => {
  it.each([
    ['::ffff:127.0.0.1', false, 'mapped loopback, unbracketed'],
    ['[::FFFF:7F00:1]', false, 'mapped loopback, upper case'],
    ['[::ffff:169.254.169.254]', false, 'mapped link-local (cloud metadata)'],
    ['[::ffff:a9fe:a9fe]', false, 'mapped link-local, hex'],
    ['[::ffff:6440:1]', false, 'mapped carrier-grade NAT 100.64.0.1'],
    ['[::ffff:ac1f:ffff]', false, 'mapped 172.31.255.255, the last of 172.16/12'],
    ['[::ffff:ac20:0]', true, 'mapped 172.32.0.0, the first after 172.16/12'],
    ['[::ffff:1.1.1.1]', true, 'mapped public, dotted'],
    ['172.31.255.255', false, 'the last address of 172.16/12'],
    ['100.127.255.255', false, 'the last address of 100.64/10'],
    ['100.63.255.255', true, 'the address before 100.64/10'],
    ['[2001:1ff:ffff::1]', false, 'inside 2001::/23'],
    ['[2001:200::1]', true, 'the first /23 after 2001::/23'],
    ['[2001:db7:ffff::1]', true, 'just before 2001:db8::/32'],
    ['[3fff:fff::1]', false, 'inside 3fff::/20'],
    ['[3fff:1000::1]', true, 'just after 3fff::/20'],
  ] satisfies ReadonlyArray<[string, boolean, string]>)('%s is public: %s (%s)', (host: string, expected: boolean, _why: string) => {
    expect(isPublicHostname(host)).toBe(expected);
  });
});
