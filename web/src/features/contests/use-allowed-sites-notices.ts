import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  NETWORK_SITES_DEBOUNCE_MS,
  allowedHostNames,
  allowedSitesLines,
  contestsRoutes,
} from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { allowedSitesNotices } from './allowed-sites-notices';

/** How long one list's answer is reused (ms): a name's addresses do not change while the form is open. */
const SITES_INFO_STALE_MS = 5 * 60_000;

/**
 * The query of what the server says of `hosts` (`POST /api/networkSitesInfo`, admin): one per list of
 * names, kept `SITES_INFO_STALE_MS`; a failure is logged only (the notices are advice).
 */
export const networkSitesInfoQuery = (hosts: readonly string[]) => ({
  queryKey: ['network_sites_info', hosts.join('\n')],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    callApi(contestsRoutes.networkSitesInfo, { body: { hosts: [...hosts] }, signal }).then(
      (answer) => answer.data,
    ),
  staleTime: SITES_INFO_STALE_MS,
  meta: { failure: 'No se pudo saber a qué direcciones apuntan los sitios permitidos' },
});

/**
 * The notices for the host names of «Sitios permitidos» as `text` holds them (one site per line):
 * asked of the server (`networkSitesInfoQuery`) `NETWORK_SITES_DEBOUNCE_MS` after the names last
 * changed, each list once; none while the list has no host name, before the answer, or when the server
 * could not answer (the save never waits for them). A name removed meanwhile loses its notice at once.
 */
export function useAllowedSitesNotices(text: string): string[] {
  const key = useMemo(() => allowedHostNames(allowedSitesLines(text)).join('\n'), [text]);
  const [asked, setAsked] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(key), NETWORK_SITES_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const hosts = asked === '' ? [] : asked.split('\n');
  const info = useQuery({ ...networkSitesInfoQuery(hosts), enabled: hosts.length > 0 });
  const current = new Set(key.split('\n'));
  return allowedSitesNotices((info.data ?? []).filter((site) => current.has(site.host)));
}
