/**
 * The agent's local services a contestant's traffic is diverted to on Linux while a policy is in force
 * (agent/README.md, «Sitios permitidos»): the DNS forwarder (dns-forwarder.ts: answers only allowed
 * names, from the frozen upstream resolvers) and the name filter (name-filter.ts: lets a web connection
 * through only for an allowed TLS SNI or HTTP Host, to the agent's own addresses of that name). Started
 * once when a policy is first put in force, stopped when it is lifted (network-guard.ts).
 */
import { sharedCdnOf } from '@concurso/shared';
import { DnsForwarder } from './dns-forwarder.js';
import { NameFilter, type EchRule } from './name-filter.js';
import { WEB_PORTS } from './nftables.js';
import type { DivertPorts, ResolvedPolicy } from './resolved-policy.js';

/** The diversion's services, running. */
export interface Diversion {
  /** Where the nat chain sends a contestant's DNS and web connections. */
  readonly ports: DivertPorts;
  /**
   * The policy as now resolved: the name filter lets through its names allowed on a web port (or on no
   * port), connecting to these addresses; the forwarder answers `names` (every allowed host name and
   * the server's host when it is a name).
   */
  update(policy: ResolvedPolicy, names: readonly string[]): void;
  /** Stops both services (their open connections end). */
  stop(): Promise<void>;
}

/** What starting a diversion needs. */
export interface DiversionOptions {
  /** The frozen upstream resolvers (port 53) the forwarder asks. */
  upstream: ReadonlyArray<{ address: string; version: 4 | 6 }>;
  log: (line: string) => void;
}

/** Starts a diversion. @throws Error when a service cannot listen (whatever started is stopped). */
export type StartDiversion = (options: DiversionOptions) => Promise<Diversion>;

/** The allowed addresses of each host name in `policy` (lowercase). */
function addressesByName(policy: ResolvedPolicy): Map<string, Array<{ address: string; version: 4 | 6 }>> {
  const byName = new Map<string, Array<{ address: string; version: 4 | 6 }>>();
  for (const a of policy.allowed) {
    if (a.host === undefined) continue;
    const name = a.host.toLowerCase();
    const list = byName.get(name) ?? [];
    if (!list.some((b) => b.address === a.address)) list.push({ address: a.address, version: a.version });
    byName.set(name, list);
  }
  return byName;
}

/**
 * What the name filter does with a ClientHello carrying ECH whose clear name is `host`: judged by that
 * name, unless one of the name's addresses is on a shared CDN range (shared `sharedCdnOf`), where a real
 * ECH behind an allowed clear name could reach any other site of that front: refused. Browsers send the
 * extension even without a key ("GREASE"), so a site on a CDN loads in them only with ECH turned off in
 * the browser's policy (docs/runbook.md, agent/README.md «Sitios permitidos»).
 */
export function echRuleOf(
  host: string | null,
  addressesOf: (host: string) => ReadonlyArray<{ address: string }>,
): EchRule {
  if (host === null) return 'refuse';
  return addressesOf(host).some((a) => sharedCdnOf(a.address) !== null) ? 'refuse' : 'outer-name';
}

/** The real diversion: a `DnsForwarder` and a `NameFilter` of this process. */
export const startDiversion: StartDiversion = async ({ upstream, log }) => {
  let addresses = new Map<string, Array<{ address: string; version: 4 | 6 }>>();
  const forwarder = new DnsForwarder({ upstream, log });
  const addressesOf = (host: string) => addresses.get(host.toLowerCase()) ?? [];
  const filter = new NameFilter({ addressesOf, log, ech: (host) => echRuleOf(host, addressesOf) });
  try {
    const { port: dnsPort } = await forwarder.start();
    const { tlsPort, httpPort } = await filter.start();
    return {
      ports: { dnsPort, tlsPort, httpPort },
      update: (policy, names) => {
        addresses = addressesByName(policy);
        const web = new Map<string, { host: string; port: number | null }>();
        for (const a of policy.allowed)
          if (a.host !== undefined && (a.port === null || (WEB_PORTS as readonly number[]).includes(a.port)))
            web.set(`${a.host} ${a.port}`, { host: a.host, port: a.port });
        filter.allow([...web.values()]);
        forwarder.allow(names.map((n) => n.toLowerCase()));
      },
      stop: async () => {
        await Promise.allSettled([filter.stop(), forwarder.stop()]);
      },
    };
  } catch (error) {
    await Promise.allSettled([filter.stop(), forwarder.stop()]);
    throw error;
  }
};
