import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as CatalogApi from '../catalog-api';
import type { ListEnvelope as ListAnswer } from '../queries/list-errors';
import { fakeBoardSocketModule, type FakeSocket } from '../fake-socket.test-support';

interface Call {
  catalog: string;
  resolve: (answer: ListAnswer<unknown>) => void;
  reject: (error: unknown) => void;
}

const sockets: FakeSocket[] = [];
const calls: Call[] = [];

vi.mock('../board-socket', () => fakeBoardSocketModule(sockets, true));
vi.mock('../catalog-api', async (importOriginal) => ({
  ...(await importOriginal<typeof CatalogApi>()),
  fetchCatalog: vi.fn(
    (catalog: string) =>
      new Promise<ListAnswer<unknown>>((resolve, reject) => calls.push({ catalog, resolve, reject })),
  ),
}));

const { useCatalogStore } = await import('./catalog-store');
const { closeLiveSocket } = await import('../live-socket');
const { ApiRequestError } = await import('../api-error');
const { endSession } = await import('../session-end');

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const ok = (data: unknown[]): ListAnswer<unknown> => ({ success: true, data, message: '' });
const callsFor = (catalog: string) => calls.filter((call) => call.catalog === catalog);

beforeEach(() => {
  sockets.length = 0;
  calls.length = 0;
  vi.stubGlobal('localStorage', { getItem: () => 'jwt' });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  useCatalogStore.getState().reset();
  closeLiveSocket();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('catalogue store', () => {
  it('loads a list on first use and shares one socket between lists', async () => {
    const store = useCatalogStore.getState();
    const stopSchools = store.subscribe('schools');
    const stopDepartaments = store.subscribe('departaments');
    expect(sockets).toHaveLength(1);
    expect(calls.map((call) => call.catalog)).toEqual(['schools', 'departaments']);

    callsFor('schools')[0]?.resolve(ok([{ id: 1, name: 'CUCEI' }]));
    await settle();
    expect(useCatalogStore.getState().lists.schools).toEqual({
      rows: [{ id: 1, name: 'CUCEI' }],
      loaded: true,
    });
    expect(useCatalogStore.getState().lists.departaments.loaded).toBe(false);
    stopSchools();
    stopDepartaments();
  });

  it('refetches the changed list and the lists embedding its names on catalog.changed', async () => {
    const store = useCatalogStore.getState();
    const stops = [store.subscribe('schools'), store.subscribe('departaments'), store.subscribe('coaches')];
    for (const call of [...calls]) call.resolve(ok([]));
    await settle();
    calls.length = 0;

    sockets[0]?.fire('catalog.changed', { catalog: 'schools' });
    expect(calls.map((call) => call.catalog).sort()).toEqual(['departaments', 'schools']);
    expect(useCatalogStore.getState().versions.schools).toBe(1);

    sockets[0]?.fire('catalog.changed', { catalog: 'careers' });
    // Nobody uses careers: nothing is fetched, only its version moves.
    expect(callsFor('careers')).toHaveLength(0);
    expect(useCatalogStore.getState().versions.careers).toBe(1);
    stops.forEach((stop) => stop());
  });

  it('loads once more when a change arrives while a load runs, never in parallel', async () => {
    const stop = useCatalogStore.getState().subscribe('levels');
    sockets[0]?.fire('catalog.changed', { catalog: 'levels' });
    sockets[0]?.fire('catalog.changed', { catalog: 'levels' });
    expect(callsFor('levels')).toHaveLength(1);
    callsFor('levels')[0]?.resolve(ok([{ id: 1, level: 'Básico' }]));
    await settle();
    expect(callsFor('levels')).toHaveLength(2);
    callsFor('levels')[1]?.resolve(
      ok([
        { id: 1, level: 'Básico' },
        { id: 4, level: 'Experto' },
      ]),
    );
    await settle();
    expect(useCatalogStore.getState().lists.levels.rows).toHaveLength(2);
    stop();
  });

  it('refreshes every list in use after a reconnect (events may have been missed)', async () => {
    const stop = useCatalogStore.getState().subscribe('processes');
    callsFor('processes')[0]?.resolve(ok([]));
    await settle();
    sockets[0]?.fire('disconnect', 'transport close');
    sockets[0]?.fire('connect');
    expect(callsFor('processes')).toHaveLength(2);
    stop();
  });

  it('reports a failed load once, with the SPEC section 8 texts', async () => {
    const stop = useCatalogStore.getState().subscribe('contests');
    callsFor('contests')[0]?.resolve({ success: false, data: [], message: 'Sin datos' });
    await settle();
    expect(useCatalogStore.getState().loadError).toEqual({ title: 'Advertencia', message: 'Sin datos' });
    expect(useCatalogStore.getState().lists.contests.loaded).toBe(true);

    void useCatalogStore.getState().reload('contests');
    callsFor('contests')[1]?.reject(new ApiRequestError({ kind: 'network', status: 0 }));
    await settle();
    // The first dialog is still open: it is not replaced.
    expect(useCatalogStore.getState().loadError?.title).toBe('Advertencia');
    useCatalogStore.getState().dismissError();
    expect(useCatalogStore.getState().loadError).toBeNull();
    stop();
  });

  it('removes its listeners and gives the socket back when no list is in use', () => {
    const stop = useCatalogStore.getState().subscribe('careers');
    const socket = sockets[0];
    expect(socket?.handlers.get('catalog.changed')?.size).toBe(1);
    stop();
    stop();
    expect(socket?.handlers.get('catalog.changed')?.size).toBe(0);
  });

  it("reloads the user lists in use when the server announces 'users'", async () => {
    const store = useCatalogStore.getState();
    const stops = [store.subscribe('judgeUsers'), store.subscribe('participantUsers')];
    for (const call of [...calls]) call.resolve(ok([]));
    await settle();
    calls.length = 0;
    sockets[0]?.fire('catalog.changed', { catalog: 'users' });
    expect(calls.map((call) => call.catalog).sort()).toEqual(['judgeUsers', 'participantUsers']);
    stops.forEach((stop) => stop());
  });

  it('shows a judge’s block in the teams list as it happens (team.updated)', async () => {
    const stop = useCatalogStore.getState().subscribe('teams');
    callsFor('teams')[0]?.resolve(
      ok([{ id: 4, name: 'Los Punteros', status_team: { id: 1, status: 'Activo' }, number_attempts: 0 }]),
    );
    await settle();
    sockets[0]?.fire('team.updated', {
      id: 4,
      name: 'Los Punteros',
      levels_id: 1,
      number_attempts: 0,
      status_team: { id: 2, status: 'Descalificado' },
      agent_online: false,
      version: 3,
    });
    expect(useCatalogStore.getState().lists.teams.rows[0]?.status_team).toEqual({
      id: 2,
      status: 'Descalificado',
    });
    stop();
  });

  it('forgets its lists, drops late answers and closes the socket when the session ends', async () => {
    vi.stubGlobal('localStorage', { getItem: () => 'jwt', removeItem: () => undefined });
    const stop = useCatalogStore.getState().subscribe('schools');
    callsFor('schools')[0]?.resolve(ok([{ id: 1, name: 'CUCEI' }]));
    await settle();
    void useCatalogStore.getState().reload('schools');

    endSession('deleted', 'jwt');
    expect(sockets[0]?.disconnect).toHaveBeenCalled();
    expect(useCatalogStore.getState().lists.schools).toEqual({ rows: [], loaded: false });
    // The load that was on its way fails with the 401: no dialog for it.
    callsFor('schools')[1]?.reject(new ApiRequestError({ kind: 'http', status: 401 }));
    await settle();
    expect(useCatalogStore.getState().loadError).toBeNull();
    stop();
  });
});
