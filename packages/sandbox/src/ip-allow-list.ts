import { BlockList, isIP } from 'node:net';

interface IpRange {
  address: string;
  type: 'ipv4' | 'ipv6';
  /** The prefix length of a CIDR range; undefined for an exact address. */
  bits: number | undefined;
}

/** An allow-list entry read as an exact address or a CIDR range; a string saying what is wrong with it otherwise. */
export function parseIpRange(entry: string): IpRange | string {
  const [address = '', prefix] = entry.split('/');
  const family = isIP(address);
  if (family === 0) return 'is not an IP address or CIDR range';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return { address, type, bits: undefined };
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return 'has an invalid prefix length';
  return { address, type, bits };
}

/**
 * An IP allow-list of entries `parseIpRange` reads (startSandbox checked them
 * with it; `option` names the list if one is not). Undefined for an empty or
 * absent list, which the caller reads as its default (everyone on the service
 * routes, as an unconfigured portal would; this machine alone on the control
 * routes).
 */
export function createIpAllowList(entries: readonly string[] | undefined, option = 'ipAllowList'): ((address: string) => boolean) | undefined {
  if (!entries || entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const range = parseIpRange(entry);
    if (typeof range === 'string') throw new TypeError(`${option} entry "${entry}" ${range}`);
    if (range.bits === undefined) list.addAddress(range.address, range.type);
    else list.addSubnet(range.address, range.bits, range.type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
