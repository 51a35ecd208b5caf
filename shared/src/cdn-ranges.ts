import ipaddr from 'ipaddr.js';
import { ipVersion } from './schemas/network.js';

/**
 * The published address ranges of the large CDNs and front ends, whose addresses serve many unrelated
 * sites at once: allowing a host name by its addresses there opens every site on them. The contest
 * form says so for each allowed name that resolves into one («… comparte direcciones con otros sitios:
 * se filtrará por nombre»): a Linux agent filters such a name by the name itself, a Windows agent only
 * by its addresses (agent/README.md, «Sitios permitidos»).
 *
 * No npm package ships these lists kept up to date (the ones there cover one provider, unmaintained, or
 * download the lists at run time), so they are kept here: the ranges of each provider's published
 * list, reviewed on 2026-11-27 against public copies of those lists. They change seldom (Cloudflare's
 * list last in 2021); a range missed only means the form shows no notice for that name, never a
 * blocked site. To refresh one, copy its source again.
 */
export interface CdnRanges {
  /** The provider as the notices could name it. */
  provider: string;
  /** Where the list is published. */
  source: string;
  /** Its networks, `address/prefix`, IPv4 and IPv6. */
  cidrs: readonly string[];
}

/** The providers' ranges (see the module's comment for their sources and date). */
export const CDN_RANGES: readonly CdnRanges[] = [
  {
    provider: 'Cloudflare',
    source: 'https://www.cloudflare.com/ips-v4 and /ips-v6',
    cidrs: [
      '173.245.48.0/20',
      '103.21.244.0/22',
      '103.22.200.0/22',
      '103.31.4.0/22',
      '141.101.64.0/18',
      '108.162.192.0/18',
      '190.93.240.0/20',
      '188.114.96.0/20',
      '197.234.240.0/22',
      '198.41.128.0/17',
      '162.158.0.0/15',
      '104.16.0.0/13',
      '104.24.0.0/14',
      '172.64.0.0/13',
      '131.0.72.0/22',
      '2400:cb00::/32',
      '2606:4700::/32',
      '2803:f800::/32',
      '2405:b500::/32',
      '2405:8100::/32',
      '2a06:98c0::/29',
      '2c0f:f248::/32',
    ],
  },
  {
    provider: 'Fastly',
    source: 'https://api.fastly.com/public-ip-list',
    cidrs: [
      '23.235.32.0/20',
      '43.249.72.0/22',
      '103.244.50.0/24',
      '103.245.222.0/23',
      '103.245.224.0/24',
      '104.156.80.0/20',
      '140.248.64.0/18',
      '140.248.128.0/17',
      '146.75.0.0/17',
      '151.101.0.0/16',
      '157.52.64.0/18',
      '167.82.0.0/17',
      '167.82.128.0/20',
      '167.82.160.0/20',
      '167.82.224.0/20',
      '172.111.64.0/18',
      '185.31.16.0/22',
      '199.27.72.0/21',
      '199.232.0.0/16',
      '2a04:4e40::/32',
      '2a04:4e42::/32',
    ],
  },
  {
    // Akamai publishes no list of its edge: these are the large blocks its network (AS20940) announces,
    // as the public routing reports (cidr-report.org) list them.
    provider: 'Akamai',
    source: 'https://www.cidr-report.org (AS20940)',
    cidrs: [
      '2.16.0.0/13',
      '23.0.0.0/12',
      '23.32.0.0/11',
      '23.192.0.0/11',
      '72.246.0.0/15',
      '88.221.0.0/16',
      '92.122.0.0/15',
      '95.100.0.0/15',
      '96.6.0.0/15',
      '96.16.0.0/15',
      '104.64.0.0/10',
      '184.24.0.0/13',
      '184.50.0.0/15',
      '184.84.0.0/14',
      '2600:1400::/24',
      '2a02:26f0::/29',
    ],
  },
  {
    // Google's own services (goog.json less its cloud customers' cloud.json): its front ends.
    provider: 'Google',
    source: 'https://www.gstatic.com/ipranges/goog.json',
    cidrs: [
      '8.8.4.0/24',
      '8.8.8.0/24',
      '64.233.160.0/19',
      '66.102.0.0/20',
      '66.249.64.0/19',
      '72.14.192.0/18',
      '74.125.0.0/16',
      '108.177.0.0/17',
      '142.250.0.0/15',
      '172.217.0.0/16',
      '172.253.0.0/16',
      '173.194.0.0/16',
      '209.85.128.0/17',
      '216.58.192.0/19',
      '216.239.32.0/19',
      '2001:4860::/32',
      '2404:6800::/32',
      '2607:f8b0::/32',
      '2800:3f0::/32',
      '2a00:1450::/32',
      '2c0f:fb50::/32',
    ],
  },
  {
    // The CLOUDFRONT service's edge ranges (the small regional origin-facing ones left out).
    provider: 'Amazon CloudFront',
    source: 'https://ip-ranges.amazonaws.com/ip-ranges.json (service CLOUDFRONT)',
    cidrs: [
      '13.32.0.0/15',
      '13.35.0.0/16',
      '13.224.0.0/14',
      '13.249.0.0/16',
      '18.64.0.0/14',
      '18.154.0.0/15',
      '18.160.0.0/15',
      '18.164.0.0/15',
      '18.172.0.0/15',
      '18.238.0.0/15',
      '18.244.0.0/15',
      '52.84.0.0/15',
      '52.222.128.0/17',
      '54.182.0.0/16',
      '54.192.0.0/16',
      '54.230.0.0/17',
      '54.230.128.0/18',
      '54.230.200.0/21',
      '54.230.208.0/20',
      '54.230.224.0/19',
      '54.239.128.0/18',
      '54.239.192.0/19',
      '54.240.128.0/18',
      '64.252.64.0/18',
      '64.252.128.0/18',
      '65.8.0.0/16',
      '65.9.0.0/17',
      '65.9.128.0/18',
      '70.132.0.0/18',
      '71.152.0.0/17',
      '99.84.0.0/16',
      '99.86.0.0/16',
      '108.138.0.0/15',
      '108.156.0.0/14',
      '143.204.0.0/16',
      '144.220.0.0/16',
      '204.246.164.0/22',
      '204.246.168.0/22',
      '204.246.172.0/23',
      '204.246.174.0/23',
      '204.246.176.0/20',
      '205.251.249.0/24',
      '205.251.250.0/23',
      '205.251.252.0/23',
      '205.251.254.0/24',
      '216.137.32.0/19',
      '2600:9000::/28',
    ],
  },
  {
    // The anycast front ends of the AzureFrontDoor.Frontend service tag that every Front Door profile
    // shares, and Microsoft's edge block they sit in for IPv6.
    provider: 'Azure Front Door',
    source: 'https://www.microsoft.com/download/details.aspx?id=56519 (AzureFrontDoor.Frontend)',
    cidrs: ['13.107.213.0/24', '13.107.246.0/24', '204.79.197.0/24', '2620:1ec::/36'],
  },
];

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The ranges parsed once, on first use. */
let parsed: Array<{ provider: string; network: Network }> | null = null;

function networks(): Array<{ provider: string; network: Network }> {
  parsed ??= CDN_RANGES.flatMap(({ provider, cidrs }) =>
    cidrs.map((cidr) => ({ provider, network: ipaddr.parseCIDR(cidr) })),
  );
  return parsed;
}

/**
 * Whether `address` (an IPv4 or IPv6 address; an IPv4-mapped IPv6 one counts as its IPv4 address) lies
 * in a network of `cidrs` (`address/prefix` texts). False for anything that is not an address.
 */
export function addressInNetworks(address: string, cidrs: readonly string[]): boolean {
  const ip = parseAddress(address);
  return ip !== null && cidrs.some((cidr) => matches(ip, ipaddr.parseCIDR(cidr)));
}

/**
 * The provider of `CDN_RANGES` whose published ranges hold `address` (e.g. `Cloudflare` for
 * `104.16.1.1`), or null: a private, a loopback or any other address, or no address at all.
 */
export function sharedCdnOf(address: string): string | null {
  const ip = parseAddress(address);
  if (ip === null) return null;
  return networks().find(({ network }) => matches(ip, network))?.provider ?? null;
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // The project's strict check first (ipaddr.js also takes '127.1' or hexadecimal parts); `process`
  // turns an IPv4-mapped IPv6 address (::ffff:1.2.3.4) into its IPv4 one.
  return ipVersion(address.toLowerCase()) === 0 ? null : ipaddr.process(address);
}

function matches(ip: ipaddr.IPv4 | ipaddr.IPv6, [range, prefix]: Network): boolean {
  // `match` throws across versions: an IPv4 address is in no IPv6 network.
  return ip.kind() === range.kind() && ip.match(range, prefix);
}
