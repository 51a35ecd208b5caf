import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import {
  BOARD_ACK_EVERY,
  encodeBoardRow,
  type BoardFrame,
  type BoardTeam,
  type CatalogName,
  type TeamRow,
} from '@concurso/shared';
import { FakeSocket, fakeOpenLiveSocketModule } from '../fake-socket.test-support';
import type { ListCatalog } from '../catalog-api';
import { createLiveBus, type BusSocket } from '../live-bus';
import { okList, settle, stubApi } from './fake-api.test-support';

const sockets: FakeSocket[] = [];
vi.mock('../open-live-socket', () => fakeOpenLiveSocketModule(sockets, true));

const { createQueryClient } = await import('./query-client');
const { catalogListKey, catalogListQuery } = await import('./catalog-queries');
const { holdCatalogSync, syncQueries } = await import('./catalog-sync');
const { closeLiveSocket, LIVE_SOCKET_LINGER_MS } = await import('../live-socket');

let api: ReturnType<typeof stubApi>;
let client: QueryClient;
let socket: FakeSocket;
let stops: Array<() => void>;

/** Mounts a reader of `list` (as a screen does) and answers its first load with `rows`. */
async function observe(list: ListCatalog, rows: unknown[] = []) {
  const observer = new QueryObserver(client, catalogListQuery(list));
  stops.push(observer.subscribe(() => undefined));
  await settle();
  api.requests.at(-1)?.answer(okList(rows));
  await settle();
}

/** Mounts readers of `lists`, then plays `catalog.changed {catalog}`: answers the paths refetched. */
async function refetchedOn(catalog: CatalogName, lists: ListCatalog[]): Promise<string[]> {
  for (const list of lists) await observe(list);
  api.forget();
  socket.fire('catalog.changed', { catalog });
  await settle();
  return api.paths();
}

const TEAM: TeamRow = {
  id: 4,
  name: 'Los Punteros',
  levels_id: 1,
  coaches_id: 1,
  contests_id: 1,
  number_attempts: 0,
  status_team: { id: 1, status: 'Activo' },
  coach: { id: 1, name: 'Coach' },
  level: { id: 1, level: 'Básico' },
  contest: { id: 1, calendar: '2026B' },
  has_agent_key: false,
};
const boardRow = (statusId: number, attempts = 0): BoardTeam => ({
  id: 4,
  name: 'Los Punteros',
  levels_id: 1,
  number_attempts: attempts,
  status_team: { id: statusId, status: statusId === 1 ? 'Activo' : 'Descalificado' },
  agent_online: false,
  agent_alert: null,
  version: 3,
});

/** A `board.frame` (board-frame.ts) carrying `rows`. */
const frame = (seq: number, ...rows: BoardTeam[]): BoardFrame => [
  seq,
  1763830000000,
  rows.map(encodeBoardRow),
];

beforeEach(() => {
  api = stubApi();
  client = createQueryClient();
  socket = new FakeSocket(true);
  // The fake plays socket.io-client's `on`/`off` untyped.
  const bus = createLiveBus(socket as unknown as BusSocket);
  stops = [syncQueries(client, bus), bus.close];
  sockets.length = 0;
});

afterEach(() => {
  stops.forEach((stop) => stop());
  client.clear();
  closeLiveSocket();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('syncQueries', () => {
  it('refetches the changed list and the lists embedding its names on catalog.changed', async () => {
    expect(await refetchedOn('schools', ['schools', 'departaments', 'coaches'])).toEqual([
      '/api/getDepartaments',
      '/api/getSchools',
    ]);
  });

  it('marks a list nobody reads stale without fetching it; its next reader refetches', async () => {
    await observe('careers');
    stops.pop()?.();
    api.forget();

    socket.fire('catalog.changed', { catalog: 'departaments' });
    await settle();
    expect(api.paths()).toEqual([]);
    expect(client.getQueryState(catalogListKey('careers'))?.isInvalidated).toBe(true);
  });

  it("refetches the three user lists when the server announces 'users'", async () => {
    expect(await refetchedOn('users', ['adminUsers', 'judgeUsers', 'participantUsers'])).toEqual([
      '/api/getUsersAdmin',
      '/api/getUsersJuecez',
      '/api/getUsersParticipants',
    ]);
  });

  it('refetches every list in use after a reconnect (events may have been missed)', async () => {
    await observe('processes');
    await observe('levels');
    api.forget();

    socket.fire('connect');
    expect(api.paths()).toEqual([]);
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    await settle();
    expect(api.paths()).toEqual(['/api/getLevels', '/api/getProcesses']);
  });

  it('shows a judge’s block in the teams list as it happens, without a refetch', async () => {
    await observe('teams', [TEAM]);
    api.forget();

    socket.fire('board.frame', frame(1, boardRow(2)));
    const rows = client.getQueryData<TeamRow[]>(catalogListKey('teams'));
    expect(rows?.[0]?.status_team).toEqual({ id: 2, status: 'Descalificado' });
    // An attempt moves no ESTATUS: the cached rows stay the same object (no re-render).
    socket.fire('board.frame', frame(2, boardRow(2, 5)));
    expect(client.getQueryData(catalogListKey('teams'))).toBe(rows);
    socket.fire('board.frame', frame(3, boardRow(1, 5)));
    expect(client.getQueryData<TeamRow[]>(catalogListKey('teams'))?.[0]?.status_team.status).toBe('Activo');
    expect(api.paths()).toEqual([]);
    // Only the shared socket acknowledges frames (live-socket.ts): the sync sends nothing itself.
    expect(socket.emit).not.toHaveBeenCalled();
  });

  it('removes its listeners when stopped', async () => {
    await observe('schools');
    api.forget();
    stops.shift()?.();
    socket.fire('catalog.changed', { catalog: 'schools' });
    await settle();
    expect(api.paths()).toEqual([]);
  });
});

describe('holdCatalogSync', () => {
  it('holds the shared socket while the shell is mounted and gives it back when it unmounts', async () => {
    vi.useFakeTimers();
    const stop = holdCatalogSync(client, 'jwt');
    const shared = sockets[0]!;
    expect(shared.handlers.get('catalog.changed')?.size).toBe(1);
    // With no board on screen, the teams list still gets its frames: the socket acknowledges them.
    for (let seq = 1; seq <= BOARD_ACK_EVERY; seq++) shared.fire('board.frame', frame(seq));
    await Promise.resolve();
    expect(shared.emit.mock.calls).toEqual([['board.ack', BOARD_ACK_EVERY]]);
    stop();
    // The live bus keeps the socket's one listener until the socket closes, after the linger.
    expect(shared.handlers.get('catalog.changed')?.size).toBe(1);
    vi.advanceTimersByTime(LIVE_SOCKET_LINGER_MS);
    expect(shared.disconnect).toHaveBeenCalled();
    expect(shared.handlers.get('catalog.changed')?.size).toBe(0);
  });
});
