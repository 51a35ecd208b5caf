/**
 * The agent's Linux firewall rules for a contest's network policy (agent/README.md, «Sitios
 * permitidos»), as `nft -f` scripts: its own table `inet concurso` only, replaced whole in one
 * transaction (so there is never a moment with half a policy) and deleted whole to lift it; no other
 * table is named. Pure: the agent resolves the host names (resolver.ts) and runs the script
 * (firewall.ts).
 */

import type { AllowedAddress, DivertPorts, ResolvedPolicy } from './resolved-policy.js';

/** The agent's own nftables table (family `inet`: IPv4 and IPv6). */
export const NFT_TABLE = 'concurso';

/** The web ports a name entry's connections take through the name filter. */
export const WEB_PORTS = [80, 443] as const;

const family = (version: 4 | 6) => (version === 4 ? 'ip' : 'ip6');
const target = (a: AllowedAddress) => (a.prefix === undefined ? a.address : `${a.address}/${a.prefix}`);
/** TCP and UDP to `port` (the transport header's port), or anything when there is no port. */
const ports = (port: number | null) => (port === null ? '' : ` meta l4proto { tcp, udp } th dport ${port}`);
/** Root's sockets: the agent (its name filter's and forwarder's own connections) and the system's. */
const ROOT = 'meta skuid 0';
/** Anyone else's sockets: the contestant's. A packet without a socket (the kernel's own) is neither. */
const NOT_ROOT = 'meta skuid != 0';

/**
 * Whether `a` is a name entry whose connections go through the name filter (its web ports, and only
 * root reaches its addresses there): with the filter in force, a name allowed with no port or with 80
 * or 443. A name with another port (`example.com:8443`) stays address-based on that port.
 */
const filteredByName = (a: AllowedAddress, divert: DivertPorts | null) =>
  divert !== null &&
  a.host !== undefined &&
  (a.port === null || (WEB_PORTS as readonly number[]).includes(a.port));

/**
 * The output filter chain's rules. Order matters: there is no blanket `ct state established accept`,
 * so every packet (also of a connection opened before the policy) must match an allowed destination,
 * and one that does not is refused at once (TCP reset, ICMP administratively prohibited) rather than
 * left to time out.
 */
function outputRules(policy: ResolvedPolicy, divert: DivertPorts | null): string[] {
  // Without the forwarder, everyone asks the resolvers themselves; with it, only root (the agent).
  const dnsWho = divert === null ? '' : `${ROOT} `;
  return [
    // The machine itself, and what the nat chain diverted to the agent's filter and forwarder (their
    // packets still name the interface chosen before the nat chain changed their destination).
    'oif "lo" accept',
    'fib daddr type local accept',
    // DHCP only as DHCP: its client ports are privileged, so no contestant's relay rides on it.
    'udp sport 68 udp dport 67 accept',
    'udp sport 546 udp dport 547 accept',
    'icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit, mld2-listener-report } accept',
    ...policy.resolvers.flatMap((r) => [
      `${dnsWho}${family(r.version)} daddr ${r.address} udp dport 53 accept`,
      `${dnsWho}${family(r.version)} daddr ${r.address} tcp dport 53 accept`,
    ]),
    ...policy.server.addresses.map(
      (s) => `${family(s.version)} daddr ${s.address} tcp dport ${policy.server.port} accept`,
    ),
    ...policy.allowed.map((a) =>
      filteredByName(a, divert)
        ? `${ROOT} ${family(a.version)} daddr ${target(a)} tcp dport ${a.port ?? `{ ${WEB_PORTS.join(', ')} }`} accept`
        : `${family(a.version)} daddr ${target(a)}${ports(a.port)} accept`,
    ),
    // ICMP errors of a flow (path MTU, unreachable): only those tied to a tracked connection.
    'ct state related meta l4proto { icmp, ipv6-icmp } accept',
    'meta l4proto tcp reject with tcp reset',
    'reject with icmpx type admin-prohibited',
  ];
}

/**
 * The input chain's rules: nothing reaches a listener on the machine from outside, only replies of
 * what it may send, DHCP replies, IPv6 neighbour discovery and ICMP errors. The server's packets are
 * accepted by their source too: a connection to it opened before the kernel tracked connections in
 * this namespace (no rule asked for it yet) is picked up mid-stream, and when its first packet then
 * seen is the server's (a push on an idle channel), conntrack calls it new.
 */
function inputRules(policy: ResolvedPolicy): string[] {
  return [
    'iif "lo" accept',
    'ct state established,related accept',
    ...policy.server.addresses.map(
      (s) => `${family(s.version)} saddr ${s.address} tcp sport ${policy.server.port} accept`,
    ),
    'udp sport 67 udp dport 68 accept',
    'udp sport 547 udp dport 546 accept',
    'icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-advert, nd-redirect, mld-listener-query } accept',
    'icmp type { destination-unreachable, time-exceeded, parameter-problem } accept',
    'icmpv6 type { destination-unreachable, packet-too-big, time-exceeded, parameter-problem } accept',
  ];
}

/**
 * The nat chain's rules: a contestant's DNS (UDP and TCP 53) goes to the agent's forwarder, and its web
 * connections (TCP 443 and 80) to the name filter, which reads the name asked (TLS SNI, HTTP Host) and
 * connects only to allowed names. The server's addresses and the entries written as addresses or
 * networks are not diverted (they stay address-based), nor are web connections to the machine itself.
 */
function divertRules(policy: ResolvedPolicy, divert: DivertPorts): string[] {
  return [
    ...policy.server.addresses.map((s) => `${family(s.version)} daddr ${s.address} return`),
    ...policy.allowed
      .filter((a) => a.host === undefined)
      .map((a) => `${family(a.version)} daddr ${target(a)}${ports(a.port)} return`),
    `${NOT_ROOT} udp dport 53 redirect to :${divert.dnsPort}`,
    `${NOT_ROOT} tcp dport 53 redirect to :${divert.dnsPort}`,
    'fib daddr type local return',
    `${NOT_ROOT} tcp dport 443 redirect to :${divert.tlsPort}`,
    `${NOT_ROOT} tcp dport 80 redirect to :${divert.httpPort}`,
  ];
}

/**
 * The script that puts `policy` in force: creates the table if missing, deletes it and creates it
 * anew in the same transaction. Chains: `output` (filter, policy drop: `outputRules`), `input` (filter,
 * policy drop: `inputRules`) and, with `divert` (the ports of the agent's forwarder and name filter),
 * `divert` (nat on output, priority -100 (dstnat): `divertRules`). Without `divert` (no name filter running)
 * every allowed name is allowed by its addresses, for everyone, and everyone may ask the resolvers.
 */
export function nftApplyScript(policy: ResolvedPolicy, divert: DivertPorts | null = null): string {
  const chain = (name: string, head: string, rules: readonly string[]) => [
    `\tchain ${name} {`,
    `\t\t${head}`,
    ...rules.map((rule) => `\t\t${rule}`),
    '\t}',
  ];
  return [
    `table inet ${NFT_TABLE} {}`,
    `delete table inet ${NFT_TABLE}`,
    `table inet ${NFT_TABLE} {`,
    ...(divert === null
      ? []
      : // Priority -100 is dstnat's: nft 1.0 names `dstnat` only on the prerouting hook.
        chain('divert', 'type nat hook output priority -100; policy accept;', divertRules(policy, divert))),
    ...chain('output', 'type filter hook output priority filter; policy drop;', outputRules(policy, divert)),
    ...chain('input', 'type filter hook input priority filter; policy drop;', inputRules(policy)),
    '}',
    '',
  ].join('\n');
}

/** The script that lifts the policy: its own table only, whether or not it exists. */
export function nftLiftScript(): string {
  return `table inet ${NFT_TABLE} {}\ndelete table inet ${NFT_TABLE}\n`;
}
