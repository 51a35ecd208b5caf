/**
 * A contest's network policy with its host names resolved (agent/README.md, «Sitios permitidos»): what
 * the firewall of each platform (nftables.ts, windows-firewall.ts) puts in force. Addresses are text as
 * `node:net` writes them (no zone index).
 */

/** One allowed destination, its host names already resolved: an address or a network, maybe a port. */
export interface AllowedAddress {
  address: string;
  version: 4 | 6;
  /** A network's prefix length; absent for one address. */
  prefix?: number;
  port: number | null;
  /**
   * The host name this address was resolved from; absent for an entry the admin wrote as an address or
   * a network. On Linux a name's web ports (80, 443) go through the agent's name filter, never by
   * address alone (nftables.ts).
   */
  host?: string;
}

/** What a machine may reach while the contest is active. */
export interface ResolvedPolicy {
  /** The contest server's addresses and port: always reachable. */
  server: { addresses: ReadonlyArray<{ address: string; version: 4 | 6 }>; port: number };
  /**
   * The DNS resolvers the agent asks (port 53), frozen when the policy was first put in force: a change
   * of the machine's DNS servers during the contest opens nothing.
   */
  resolvers: ReadonlyArray<{ address: string; version: 4 | 6 }>;
  allowed: readonly AllowedAddress[];
}

/**
 * The local ports of the agent's own DNS forwarder (UDP and TCP) and name filter (TLS and HTTP), on
 * 127.0.0.1 and ::1, where a contestant's DNS and web connections are diverted (nftables.ts).
 */
export interface DivertPorts {
  dnsPort: number;
  tlsPort: number;
  httpPort: number;
}
