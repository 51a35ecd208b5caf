/**
 * The agent's Linux firewall rules for a contest's network policy (issue 25, DESIGN.md section 6a), as
 * `nft -f` scripts: its own table `inet concurso` only, replaced whole in one transaction (so there is
 * never a moment with half a policy) and deleted whole to lift it; no other table is named. Pure: the
 * agent resolves the host names and runs the script (not yet wired: issue 25's next steps).
 */

/** The agent's own nftables table (family `inet`: IPv4 and IPv6). */
export const NFT_TABLE = 'concurso';

/** One allowed destination, its host names already resolved: an address or a network, maybe a port. */
export interface AllowedAddress {
  address: string;
  version: 4 | 6;
  /** A network's prefix length; absent for one address. */
  prefix?: number;
  port: number | null;
}

/** What a machine may reach while the contest is active. */
export interface ResolvedPolicy {
  /** The contest server's addresses and port: always reachable. */
  server: { addresses: ReadonlyArray<{ address: string; version: 4 | 6 }>; port: number };
  /** The machine's DNS resolvers: always reachable on port 53. */
  resolvers: ReadonlyArray<{ address: string; version: 4 | 6 }>;
  allowed: readonly AllowedAddress[];
}

const family = (version: 4 | 6) => (version === 4 ? 'ip' : 'ip6');
const target = (a: AllowedAddress) => (a.prefix === undefined ? a.address : `${a.address}/${a.prefix}`);
/** TCP and UDP to `port` (the transport header's port), or anything when there is no port. */
const ports = (port: number | null) => (port === null ? '' : ` meta l4proto { tcp, udp } th dport ${port}`);

/**
 * The script that puts `policy` in force: creates the table if missing, deletes it and creates it
 * anew in the same transaction, with one `output` chain whose policy is drop: loopback, established
 * and related traffic, DNS to the resolvers, the server, and the allowed destinations are accepted.
 */
export function nftApplyScript(policy: ResolvedPolicy): string {
  const rules = [
    'oif "lo" accept',
    'ct state established,related accept',
    ...policy.resolvers.flatMap((r) => [
      `${family(r.version)} daddr ${r.address} udp dport 53 accept`,
      `${family(r.version)} daddr ${r.address} tcp dport 53 accept`,
    ]),
    ...policy.server.addresses.map(
      (s) => `${family(s.version)} daddr ${s.address} tcp dport ${policy.server.port} accept`,
    ),
    ...policy.allowed.map((a) => `${family(a.version)} daddr ${target(a)}${ports(a.port)} accept`),
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
