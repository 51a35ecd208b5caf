/**
 * The agent's Linux firewall rules for a contest's network policy (issue 25, DESIGN.md section 6a), as
 * `nft -f` scripts: its own table `inet concurso` only, replaced whole in one transaction (so there is
 * never a moment with half a policy) and deleted whole to lift it; no other table is named. Pure: the
 * agent resolves the host names (resolver.ts) and runs the script (firewall.ts).
 */

import type { AllowedAddress, ResolvedPolicy } from './resolved-policy.js';

/** The agent's own nftables table (family `inet`: IPv4 and IPv6). */
export const NFT_TABLE = 'concurso';

const family = (version: 4 | 6) => (version === 4 ? 'ip' : 'ip6');
const target = (a: AllowedAddress) => (a.prefix === undefined ? a.address : `${a.address}/${a.prefix}`);
/** TCP and UDP to `port` (the transport header's port), or anything when there is no port. */
const ports = (port: number | null) => (port === null ? '' : ` meta l4proto { tcp, udp } th dport ${port}`);

/**
 * The script that puts `policy` in force: creates the table if missing, deletes it and creates it
 * anew in the same transaction, with one `output` chain: loopback, established and related traffic,
 * DHCP and IPv6 neighbour discovery, DNS to the resolvers, the server, and the allowed destinations
 * are accepted; any other new connection is refused at once (TCP reset, ICMP administratively
 * prohibited), and the chain's policy drops what is left.
 */
export function nftApplyScript(policy: ResolvedPolicy): string {
  const rules = [
    'oif "lo" accept',
    'ct state established,related accept',
    // The machine keeps its address and its IPv6 neighbours: DHCP (v4 and v6) and neighbour discovery.
    'udp dport { 67, 547 } accept',
    'icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit, mld2-listener-report } accept',
    ...policy.resolvers.flatMap((r) => [
      `${family(r.version)} daddr ${r.address} udp dport 53 accept`,
      `${family(r.version)} daddr ${r.address} tcp dport 53 accept`,
    ]),
    ...policy.server.addresses.map(
      (s) => `${family(s.version)} daddr ${s.address} tcp dport ${policy.server.port} accept`,
    ),
    ...policy.allowed.map((a) => `${family(a.version)} daddr ${target(a)}${ports(a.port)} accept`),
    // Refused at once rather than left to time out: the browser says so and nothing waits.
    'meta l4proto tcp reject with tcp reset',
    'reject with icmpx type admin-prohibited',
  ];
  return [
    `table inet ${NFT_TABLE} {}`,
    `delete table inet ${NFT_TABLE}`,
    `table inet ${NFT_TABLE} {`,
    '\tchain output {',
    '\t\ttype filter hook output priority filter; policy drop;',
    ...rules.map((rule) => `\t\t${rule}`),
    '\t}',
    '}',
    '',
  ].join('\n');
}

/** The script that lifts the policy: its own table only, whether or not it exists. */
export function nftLiftScript(): string {
  return `table inet ${NFT_TABLE} {}\ndelete table inet ${NFT_TABLE}\n`;
}
