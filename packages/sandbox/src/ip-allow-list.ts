import { BlockList, isIP } from 'node:net';

/**
 * The application's IP allow-list: exact addresses or CIDR ranges, IPv4 or IPv6.
 * An empty or absent list lets every caller through, as an unconfigured portal would.
 */
export function createIpAllowList(entries: readonly string[] | undefined): ((address: string) => boolean) | undefined {
  if (!entries || entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new TypeError(`ipAllowList entry "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) {
        throw new TypeError(`ipAllowList entry "${entry}" has an invalid prefix length`);
      }
      list.addSubnet(address, bits, type);
    }
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
