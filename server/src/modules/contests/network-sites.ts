import { lookup as dnsLookup } from 'node:dns/promises';
import { NETWORK_SITES_LOOKUP_TIMEOUT_MS, sharedCdnOf, type NetworkSiteInfo } from '@concurso/shared';

/**
 * How the server resolves an allowed host name for `POST /api/networkSitesInfo`: every IPv4 and IPv6
 * address of `host`, as the resolver answers them. Rejects when the name does not resolve.
 */
export type SiteLookup = (host: string) => Promise<string[]>;

/** The system's resolver (`getaddrinfo`, as the lab machines resolve names): every address. */
const systemSiteLookup: SiteLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * `host`'s addresses within `timeoutMs` (ms): empty when the name does not resolve or takes longer
 * (the lookup then finishes unheard: `getaddrinfo` cannot be cancelled).
 */
async function addressesOf(host: string, lookup: SiteLookup, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([lookup(host).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What each of `hosts` means on the lab machines (`POST /api/networkSitesInfo`): its addresses now and
 * whether one lies in a CDN's published ranges (`sharedCdnOf`). The names are resolved at once, each
 * for at most `timeoutMs` (ms, default `NETWORK_SITES_LOOKUP_TIMEOUT_MS`), so the answer takes about
 * that long at most; the route's schema bounds how many. Repeated names are answered once, in the
 * order of their first appearance. Never throws.
 */
export async function networkSitesInfo(
  hosts: readonly string[],
  lookup: SiteLookup = systemSiteLookup,
  timeoutMs = NETWORK_SITES_LOOKUP_TIMEOUT_MS,
): Promise<NetworkSiteInfo[]> {
  const distinct = [...new Set(hosts)];
  return Promise.all(
    distinct.map(async (host) => {
      const addresses = await addressesOf(host, lookup, timeoutMs);
      const provider = addresses.map(sharedCdnOf).find((found) => found !== null) ?? null;
      return { host, addresses, shared: provider !== null, provider };
    }),
  );
}
