// Which IP addresses the service never calls on a client's word: loopback, private, link-local
// (the cloud metadata address 169.254.169.254 among them), shared and reserved ranges, and
// their IPv6 counterparts. An IPv6 address that carries an IPv4 one (mapped, NAT64) is judged
// by the IPv4 address inside, so ::ffff:127.0.0.1 is loopback too.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Each range with the name a refusal gives it. */
const V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this-network (0.0.0.0/8, RFC 791)'],
  ['10.0.0.0', 8, 'private (10.0.0.0/8, RFC 1918)'],
  ['100.64.0.0', 10, 'shared CGNAT (100.64.0.0/10, RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (127.0.0.0/8)'],
  ['169.254.0.0', 16, 'link-local (169.254.0.0/16, RFC 3927)'],
  ['172.16.0.0', 12, 'private (172.16.0.0/12, RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'documentation (192.0.2.0/24)'],
  ['192.168.0.0', 16, 'private (192.168.0.0/16, RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0', 24, 'documentation (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'documentation (203.0.113.0/24)'],
  ['224.0.0.0', 4, 'multicast (224.0.0.0/4)'],
  ['240.0.0.0', 4, 'reserved and broadcast (240.0.0.0/4)'],
];

const V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified (::)'],
  ['::1', 128, 'loopback (::1)'],
  // IPv4-compatible addresses (RFC 4291 §2.5.5.1, deprecated): nothing legitimate uses them.
  ['::', 96, 'IPv4-compatible (::/96)'],
  ['100::', 64, 'discard (100::/64)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32)'],
  ['fc00::', 7, 'unique-local (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['fec0::', 10, 'site-local (fec0::/10)'],
  ['ff00::', 8, 'multicast (ff00::/8)'],
];

function lists(ranges: Array<[string, number, string]>, family: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return ranges.map(([net, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return [list, name];
  });
}

const V4_LISTS = lists(V4, 'ipv4');
const V6_LISTS = lists(V6, 'ipv6');

/** The IPv4 address an IPv6 one carries in its last 32 bits: ::ffff:a.b.c.d (RFC 4291) and 64:ff9b::a.b.c.d (NAT64, RFC 6052). */
function embeddedV4(address: string): string | undefined {
  const groups = expand(address);
  if (!groups) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return undefined;
  const [hi, lo] = [groups[6]!, groups[7]!];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail and :: allowed). */
function expand(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The kind of range `address` lies in when the service must not call it unless the operator
 * lists the origin (REMOTE_ORIGINS); undefined for an ordinary public address. Anything that
 * is not an IP address at all is refused as well.
 */
export function refusedRange(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return V4_LISTS.find(([list]) => list.check(bare, 'ipv4'))?.[1];
  if (!isIPv6(bare)) return 'not an IP address';
  const inner = embeddedV4(bare);
  if (inner !== undefined) {
    const range = refusedRange(inner);
    return range && `IPv4 ${inner} inside an IPv6 address: ${range}`;
  }
  return V6_LISTS.find(([list]) => list.check(bare, 'ipv6'))?.[1];
}
