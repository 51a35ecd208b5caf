/**
 * Turns a contest's allowed sites (stored form, shared `parseDestination`) into addresses the firewall
 * can name (agent/README.md, «Sitios permitidos»): host names are resolved now, every address of both
 * families, and again every minute (`NetworkGuard`); the contest server's host too; the machine's DNS
 * resolvers are read from its configuration.
 */
import { readFile } from 'node:fs/promises';
import { Resolver, lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseDestination } from '@concurso/shared';
import type { AllowedAddress, ResolvedPolicy } from './resolved-policy.js';

/** Resolves a host name to all its addresses (`dns.lookup` with `all`: what the browser would use). */
export type Lookup = (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** The system's resolver: the hosts file and DNS, as every program on the machine resolves. */
const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** An address with its family, or null when `text` is not an IP address (zone index dropped). */
function addressOf(text: string): { address: string; version: 4 | 6 } | null {
  const address = text.replace(/%.*$/, '');
  const version = isIP(address);
  return version === 0 ? null : { address, version: version as 4 | 6 };
}

/** The `nameserver` lines of a resolv.conf file; none when it cannot be read. */
async function nameservers(file: string): Promise<Array<{ address: string; version: 4 | 6 }>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
    .map((value) => (value === undefined ? null : addressOf(value)))
    .filter((value): value is { address: string; version: 4 | 6 } => value !== null);
}

const isLoopback = (a: { address: string }) => a.address.startsWith('127.') || a.address === '::1';

/**
 * The DNS resolvers of the machine (Linux): the `nameserver` lines of `resolvConf` (default
 * `/etc/resolv.conf`). When they are all loopback (systemd-resolved's 127.0.0.53, dnsmasq), that local
 * resolver asks the real ones on the machine's behalf, through the same firewall: those of
 * `upstreamConf` (systemd-resolved's `/run/systemd/resolve/resolv.conf`) are added. Windows: none are
 * read yet (agent/README.md says how to allow them).
 */
export async function systemResolvers(
  resolvConf = '/etc/resolv.conf',
  upstreamConf = '/run/systemd/resolve/resolv.conf',
): Promise<Array<{ address: string; version: 4 | 6 }>> {
  const listed = await nameservers(resolvConf);
  if (listed.length === 0 || !listed.every(isLoopback)) return listed;
  return [...listed, ...(await nameservers(upstreamConf)).filter((a) => !isLoopback(a))];
}

/**
 * The resolvers the agent itself asks while a policy is in force, chosen from the machine's (`listed`,
 * as `systemResolvers` reads them): the real ones, without a local stub (127.0.0.53) that would ask
 * them on the agent's behalf through the diverted port 53; the listed ones when all are local.
 */
export function upstreamResolvers(
  listed: ReadonlyArray<{ address: string; version: 4 | 6 }>,
): Array<{ address: string; version: 4 | 6 }> {
  const real = listed.filter((a) => !isLoopback(a));
  return real.length > 0 ? real : [...listed];
}

/** Longest one DNS question to the upstream resolvers may take (ms), per try. */
const UPSTREAM_TIMEOUT_MS = 2_000;

/**
 * Resolves a host name by asking `servers` (port 53) only, A and AAAA at once: the machine's hosts
 * file and its resolv.conf of the moment play no part (the console user may change them mid-contest).
 * Rejects (ENOTFOUND) when neither family answers with an address.
 */
export function upstreamLookup(servers: ReadonlyArray<{ address: string; version: 4 | 6 }>): Lookup {
  const resolver = new Resolver({ timeout: UPSTREAM_TIMEOUT_MS, tries: 2 });
  resolver.setServers(servers.map((s) => s.address));
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (found.length === 0)
      throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    return found;
  };
}

/** What `resolvePolicy` needs: the server's URL, the allowed sites, and how to resolve. */
export interface PolicySource {
  /** The contest server's base URL (`http://servidor:3000`). */
  server: string;
  /** The allowed sites as the config sends them (stored form). */
  allowed: readonly string[];
  /** Resolves the server's host name (default `systemLookup`), and the allowed names without `nameLookup`. */
  lookup?: Lookup;
  /** Resolves the allowed host names (the agent's frozen upstream resolvers, `upstreamLookup`). */
  nameLookup?: Lookup;
  /** The machine's DNS resolvers (default `systemResolvers()`). */
  resolvers?: ReadonlyArray<{ address: string; version: 4 | 6 }>;
}

/**
 * The policy with every host name resolved. A host that does not resolve now is left out, and named
 * in `unresolved` (it is tried again at the next resolution); an entry that is not a destination
 * (an older server's) is skipped. The server's host must resolve: the agent must keep reaching it.
 * @throws Error when the server's host name does not resolve.
 */
export async function resolvePolicy(
  source: PolicySource,
): Promise<{ policy: ResolvedPolicy; unresolved: string[] }> {
  const lookup = source.lookup ?? systemLookup;
  const url = new URL(source.server);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const serverHost = url.hostname.replace(/^\[|\]$/g, '');
  const literal = addressOf(serverHost);
  const serverAddresses = literal
    ? [literal]
    : await resolved(lookup, serverHost).catch(() => {
        throw new Error(`no se pudo resolver el nombre del servidor ${serverHost}`);
      });
  const allowed: AllowedAddress[] = [];
  const unresolved: string[] = [];
  // Every name asked at once (a name that times out does not hold up the others), used in list order.
  const nameLookup = source.nameLookup ?? lookup;
  const answers = new Map<string, Promise<Array<{ address: string; version: 4 | 6 }>>>();
  for (const site of source.allowed) {
    const destination = parseDestination(site);
    if (typeof destination !== 'string' && destination.kind === 'host' && !answers.has(destination.host))
      answers.set(
        destination.host,
        resolved(nameLookup, destination.host).catch(() => []),
      );
  }
  for (const site of source.allowed) {
    const destination = parseDestination(site);
    if (typeof destination === 'string') continue;
    if (destination.kind === 'ip')
      allowed.push({ address: destination.address, version: destination.version, port: destination.port });
    else if (destination.kind === 'cidr')
      allowed.push({
        address: destination.address,
        version: destination.version,
        prefix: destination.prefix,
        port: destination.port,
      });
    else {
      const addresses = await answers.get(destination.host)!;
      if (addresses.length === 0) unresolved.push(destination.host);
      for (const a of addresses) allowed.push({ ...a, port: destination.port, host: destination.host });
    }
  }
  return {
    policy: {
      server: { addresses: serverAddresses, port },
      resolvers: source.resolvers ?? (await systemResolvers()),
      allowed,
    },
    unresolved,
  };
}

/** Every address of `host`, without repeats. */
async function resolved(lookup: Lookup, host: string): Promise<Array<{ address: string; version: 4 | 6 }>> {
  const seen = new Set<string>();
  const out: Array<{ address: string; version: 4 | 6 }> = [];
  for (const entry of await lookup(host)) {
    const address = addressOf(entry.address);
    if (address && !seen.has(address.address)) {
      seen.add(address.address);
      out.push(address);
    }
  }
  return out;
}
