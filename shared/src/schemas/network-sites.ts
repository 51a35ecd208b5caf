import { z } from 'zod';
import { NETWORK_MAX_DESTINATIONS, parseDestination, unresolvedHostSchema } from './network.js';

/**
 * What an allowed host name means on the lab machines, told to the admin under «Sitios permitidos»
 * while the list is edited: the addresses it resolves to now, and whether they are a CDN's shared ones
 * (`CDN_RANGES`), where its addresses would open every other site on them too.
 */

/** Longest the server waits for one name's resolution (ms); a name still unanswered has no addresses. */
export const NETWORK_SITES_LOOKUP_TIMEOUT_MS = 2_000;

/** How long the contest form waits after the last keystroke before it asks (ms). */
export const NETWORK_SITES_DEBOUNCE_MS = 600;

/**
 * Body of `POST /api/networkSitesInfo` (admin): the host names of the list (`hosts`, each a host name as
 * `parseDestination` stores it: lower-case letters, digits, `-` and `.`, at most 253), at most
 * `NETWORK_MAX_DESTINATIONS` (a list's own bound: the server resolves at most that many names).
 */
export const networkSitesInfoInputSchema = z.object({
  hosts: z.array(unresolvedHostSchema).max(NETWORK_MAX_DESTINATIONS),
});
export type NetworkSitesInfoInput = z.infer<typeof networkSitesInfoInputSchema>;

/** One host name of `POST /api/networkSitesInfo`'s answer. */
export const networkSiteInfoSchema = z.object({
  host: z.string(),
  /** Its IPv4 and IPv6 addresses now, by the server's resolver; empty when it did not resolve in time. */
  addresses: z.array(z.string()),
  /** Whether one of them lies in a CDN's published ranges (`CDN_RANGES`): shared with other sites. */
  shared: z.boolean(),
  /** That CDN (`CdnRanges.provider`, e.g. `Cloudflare`), null when not shared. */
  provider: z.string().nullable(),
});
export type NetworkSiteInfo = z.infer<typeof networkSiteInfoSchema>;

/** `data` of `POST /api/networkSitesInfo`: one entry per distinct host name asked, in their order. */
export const networkSitesInfoSchema = z.array(networkSiteInfoSchema);

/** The notices under «Sitios permitidos» (Spanish). */
export const NETWORK_SITES_TEXTS = {
  /** A host name on a CDN's shared addresses: Linux agents filter it by name (agent/README.md). */
  shared: (host: string) => `${host} comparte direcciones con otros sitios: se filtrará por nombre`,
} as const;

/**
 * The host names of the form's lines, each once, in their order (what the form asks about): the lines
 * that are host names (`parseDestination`, with or without a port); addresses, networks and lines with
 * a mistake are left out. At most `NETWORK_MAX_DESTINATIONS`.
 */
export function allowedHostNames(lines: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const line of lines) {
    const parsed = parseDestination(line);
    if (typeof parsed !== 'string' && parsed.kind === 'host' && !hosts.includes(parsed.host))
      hosts.push(parsed.host);
  }
  return hosts.slice(0, NETWORK_MAX_DESTINATIONS);
}
