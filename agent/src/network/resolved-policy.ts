/**
 * A contest's network policy with its host names resolved (issue 25, DESIGN.md section 6a): what the
 * firewall of each platform (nftables.ts, windows-firewall.ts) puts in force. Addresses are text as
 * `node:net` writes them (no zone index).
 */

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
