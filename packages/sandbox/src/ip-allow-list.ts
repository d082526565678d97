import { BlockList, isIP } from 'node:net';

/**
 * An IP allow-list: exact addresses or CIDR ranges, IPv4 or IPv6; `option`
 * names it in errors. Undefined for an empty or absent list, which the caller
 * reads as its default (everyone on the service routes, as an unconfigured
 * portal would; this machine alone on the control routes).
 */
export function createIpAllowList(entries: readonly string[] | undefined, option = 'ipAllowList'): ((address: string) => boolean) | undefined {
  if (!entries || entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new TypeError(`${option} entry "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) {
        throw new TypeError(`${option} entry "${entry}" has an invalid prefix length`);
      }
      list.addSubnet(address, bits, type);
    }
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
