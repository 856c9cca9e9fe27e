import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a webhook must never reach unless configuration allows it: loopback, private,
 * carrier-grade NAT, link-local (cloud metadata at 169.254.169.254), unspecified, multicast,
 * reserved and documentation ranges, and the IPv6 equivalents.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped, -compatible, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const value = (parseInt(hex[1], 16) << 16) | parseInt(hex[2], 16);
    return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const value = (parseInt(sixToFour[1], 16) << 16) | parseInt(sixToFour[2], 16);
    return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
  }
  return undefined;
}

/** True for an address a webhook must not reach (see BLOCKED); true for anything that is not an IP. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined) return BLOCKED.check(v4, 'ipv4');
    return BLOCKED.check(bare, 'ipv6');
  }
  return true;
}

/** Why a subscription URL is refused, or undefined when it is acceptable. */
export type TargetProblem = string | undefined;

/**
 * Checks a subscription URL: absolute http(s), no credentials, and (unless private targets are
 * allowed) a host that is not, and does not resolve to, a private address. The same rule is
 * applied again on every connection (`guardedLookup`), so a DNS answer that changes after the
 * check (rebinding) cannot reach an internal address.
 */
export async function checkTargetUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<TargetProblem> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (!url.hostname) return 'must name a host';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? 'must not point to a private, loopback or link-local address' : undefined;
  if (/^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host)) return 'must not point to localhost';
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `host ${host} cannot be resolved`;
  }
  if (addresses.length === 0) return `host ${host} cannot be resolved`;
  if (addresses.some(isPrivateAddress)) return 'must not resolve to a private, loopback or link-local address';
  return undefined;
}

async function resolveAll(host: string): Promise<string[]> {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  constructor(host: string, address: string) {
    super(`refused to connect to ${host}: ${address} is a private, loopback or link-local address`);
    this.name = 'BlockedTargetError';
  }
}

/**
 * A `lookup` for `net.connect` (undici `connect.lookup`) that resolves as usual and then refuses
 * private addresses: the check happens on the address actually connected to.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
    if (err) return callback(err, options.all ? [] : '', undefined);
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) return callback(new BlockedTargetError(hostname, blocked.address), options.all ? [] : '', undefined);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    return callback(null, first.address, first.family);
  });
};
