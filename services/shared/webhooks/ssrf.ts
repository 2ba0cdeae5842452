/**
 * Which IP addresses a callback may reach, pure. Only public unicast is
 * allowed: loopback, private, link-local, multicast, unspecified, carrier-grade
 * NAT and every reserved or special-purpose range are refused, for IPv4 and
 * IPv6 alike, and an IPv4-mapped IPv6 address is judged as the IPv4 address it
 * carries. The operator's allow-list (CIDR ranges) overrides the refusal.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/** 2000::/3 is the only IPv6 space assigned for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export class AddressPolicy {
  private readonly allowed: readonly Cidr[];

  constructor(allowCidrs: readonly string[] = []) {
    this.allowed = allowCidrs.map((c) => ipaddr.parseCIDR(c));
  }

  /** The name of the range that refuses `address`, or undefined when it may be reached. */
  refusal(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return 'invalid';
    let ip: Address = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      ip = (ip as ipaddr.IPv6).toIPv4Address();
    }
    if (this.allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) {
      return undefined;
    }
    const range = ip.range();
    if (range !== 'unicast') return range;
    if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
    return undefined;
  }
}

/** The IP address a URL host names literally ("[::1]" → "::1"), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare =
    hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}
