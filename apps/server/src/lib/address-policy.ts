import { BlockList, isIP } from 'node:net';

// Which network addresses the server may connect to on a user's behalf: webhook deliveries
// (docs/decisions/091) and source_url fetches (235). Only public unicast
// addresses: loopback, private, shared (CGNAT), link-local (cloud metadata), multicast, reserved,
// documentation and the IPv6 forms that embed or reach them are refused. The check runs on the
// address the connection is made to (see outbound.ts), never on the URL text.

const REFUSED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

const REFUSED_V6: Array<[string, number]> = [
  ['::', 96], // unspecified, loopback (::1) and IPv4-compatible
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local, including fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
];

const refused = new BlockList();
for (const [a, p] of REFUSED_V4) refused.addSubnet(a, p, 'ipv4');
for (const [a, p] of REFUSED_V6) refused.addSubnet(a, p, 'ipv6');

/** `::ffff:a.b.c.d` (and its hex form) → `a.b.c.d`; anything else unchanged. */
export function unmapIpv4(address: string): string {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(address);
  if (!m) return address;
  const tail = m[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return address;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export interface AddressPolicy {
  /** Addresses or CIDR ranges allowed although private (local development, tests). */
  allowed: BlockList;
}

/** "127.0.0.1,::1,10.1.0.0/16" → a policy; throws on a malformed entry. */
export function addressPolicy(allowedList: readonly string[] = []): AddressPolicy {
  const allowed = new BlockList();
  for (const entry of allowedList) {
    const [addr, prefix] = entry.split('/');
    const kind = isIP(addr ?? '');
    if (kind === 0) throw new Error(`Not an IP address or range: ${entry}`);
    const family = kind === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) allowed.addAddress(addr!, family);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (kind === 4 ? 32 : 128)) {
        throw new Error(`Not an IP address or range: ${entry}`);
      }
      allowed.addSubnet(addr!, bits, family);
    }
  }
  return { allowed };
}

/**
 * Why `address` (an IP literal, IPv6 without brackets) may not be called, or null when it may.
 */
export function refusalOf(address: string, policy: AddressPolicy): string | null {
  const plain = unmapIpv4(address.toLowerCase());
  const kind = isIP(plain);
  if (kind === 0) return `${address} is not an IP address`;
  const family = kind === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowed.check(plain, family)) return null;
  if (refused.check(plain, family)) {
    return `${address} is a private, loopback, link-local or reserved address`;
  }
  return null;
}
