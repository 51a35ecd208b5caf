import { NETWORK_SITES_TEXTS, type NetworkSiteInfo } from '@concurso/shared';

/**
 * The notices under «Sitios permitidos» for what the server said of the listed host names
 * (`POST /api/networkSitesInfo`): one per name on a CDN's shared addresses, in the list's order
 * («omegaup.com comparte direcciones con otros sitios: se filtrará por nombre»). Advice only: the
 * list saves the same with or without them.
 */
export function allowedSitesNotices(info: readonly NetworkSiteInfo[]): string[] {
  return info.filter((site) => site.shared).map((site) => NETWORK_SITES_TEXTS.shared(site.host));
}
