/**
 * Keeps the query client's server state current from the push channel (docs/design.md section 6):
 * `catalog.changed` marks stale what the change touches (observed queries refetch at once, the others
 * on their next use), the board's rows (`board.frame`) patch the teams list's ESTATUS, and a reconnect marks
 * everything stale (changes made while the connection was down were never announced).
 * Loaded on demand by `use-catalog-sync.ts`, so the login bundle stays free of the socket client.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { BoardTeam, CatalogChangedPayload, TeamRow } from '@concurso/shared';
import type { LiveBus } from '../live-bus';
import { acquireLiveSocket } from '../live-socket';
import { catalogListKey } from './catalog-queries';
import { patchTeamRows } from './patch-team-rows';
import { staleCatalogs } from './stale-catalogs';

/**
 * Follows the pushes of the live bus (`api/live-bus.ts`, each frame decoded once) into `client` until
 * the returned function is called (which removes its listeners and nothing else):
 * - `catalog.changed {catalog}` invalidates every query whose key starts with a catalogue of
 *   `staleCatalogs(catalog)` (the three user lists share `users`; departaments are stale when a school
 *   changes, and so on);
 * - `board.frame` puts its teams' new ESTATUS in the cached teams list (`setQueryData`): a judge's
 *   block is no catalogue change. It does not acknowledge the frame: the shared socket does
 *   (`live-socket.ts`, `boardAckPolicy`) whoever listens;
 * - `connect` after a `disconnect` invalidates every query.
 */
export function syncQueries(client: QueryClient, bus: Pick<LiveBus, 'on'>): () => void {
  let missedEvents = false;
  const onChanged = ({ catalog }: CatalogChangedPayload) => {
    for (const source of staleCatalogs(catalog)) void client.invalidateQueries({ queryKey: [source] });
  };
  const patchTeams = (board: readonly BoardTeam[]) => {
    const key = catalogListKey('teams');
    const rows = client.getQueryData<TeamRow[]>(key);
    // Nobody loaded the teams list: nothing to patch.
    if (!rows) return;
    const next = patchTeamRows(rows, board);
    // An attempt changes no ESTATUS: the cached list stays as it is (no re-render, no new timestamp).
    if (next !== rows) client.setQueryData(key, next);
  };
  return bus.on({
    catalogChanged: onChanged,
    teams: patchTeams,
    disconnect: () => {
      missedEvents = true;
    },
    connect: () => {
      if (missedEvents) void client.invalidateQueries();
      missedEvents = false;
    },
  });
}

/**
 * Holds the tab's shared socket for `token` (`live-socket.ts`) and follows its pushes into `client`
 * until the returned function is called, which removes the listeners and gives the lease back.
 */
export function holdCatalogSync(client: QueryClient, token: string): () => void {
  const lease = acquireLiveSocket(token);
  const detach = syncQueries(client, lease.bus);
  return () => {
    detach();
    lease.release();
  };
}
