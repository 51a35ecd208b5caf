/**
 * The catalogue lists (contests, exercises, levels, schools, departaments, careers, coaches, teams,
 * processes and the three user lists) shared by the screens and by the selects of other screens' forms.
 * A list loads when its first user mounts and again whenever the server announces `catalog.changed` for
 * it (or for a catalogue whose names it embeds), so every open screen follows other admins' changes
 * without a reload; the teams' ESTATUS also follows the board's `team.updated`. The push channel is the
 * tab's shared socket, held while any list is in use.
 */
import { create } from 'zustand';
import {
  CATALOGS,
  EVENTS,
  type BoardTeam,
  type CatalogChangedPayload,
  type CatalogName,
} from '@concurso/shared';
import {
  fetchCatalog,
  LIST_CATALOGS,
  LIST_SOURCES,
  type CatalogRows,
  type ListCatalog,
} from '../catalog-api';
import { acquireLiveSocket, type LiveSocketLease } from '../live-socket';
import { onSessionEnd } from '../session-end';
import { getToken } from '../token-storage';
import { describeListError, listRows, type ListErrorView } from '../queries/list-errors';
import { patchTeamRows } from '../queries/patch-team-rows';
import { staleCatalogs } from '../queries/stale-catalogs';

const listCatalogsOf = (name: CatalogName) => LIST_CATALOGS.filter((list) => LIST_SOURCES[list] === name);

/** One list as the screens read it. */
export interface CatalogList<T> {
  rows: T[];
  /** True once the first load answered (or failed). */
  loaded: boolean;
}

type Lists = { [K in ListCatalog]: CatalogList<CatalogRows[K]> };

/** State and actions of the catalogue store. */
export interface CatalogStore {
  lists: Lists;
  /** Grows with every change announced for a catalogue; views without a list (a contest's blocked set) watch it. */
  versions: Record<CatalogName, number>;
  /** The last failed load, shown once in a dialog (SPEC.md section 8); null when none. */
  loadError: ListErrorView | null;
  /** Starts using a list: loads it and follows its changes. Returns the function that stops using it. */
  subscribe: (catalog: ListCatalog) => () => void;
  /** Loads a list again now (after a save or a delete). */
  reload: (catalog: ListCatalog) => Promise<void>;
  dismissError: () => void;
  /** Forgets every list (logout). */
  reset: () => void;
}

const emptyLists = (): Lists =>
  Object.fromEntries(LIST_CATALOGS.map((name) => [name, { rows: [], loaded: false }])) as unknown as Lists;
const zeroVersions = (): Record<CatalogName, number> =>
  Object.fromEntries(CATALOGS.map((name) => [name, 0])) as Record<CatalogName, number>;

// Bookkeeping that nothing renders from.
const subscribers = new Map<ListCatalog, number>();
const running = new Map<ListCatalog, Promise<void>>();
/** Lists asked for again while a load of them was running: they load once more when it ends. */
const queued = new Set<ListCatalog>();
let lease: LiveSocketLease | null = null;
/** Grows on reset (logout): answers of loads started before it are dropped. */
let generation = 0;
let detachSocket: (() => void) | null = null;

export const useCatalogStore = create<CatalogStore>()((set) => {
  const loadOnce = async (catalog: ListCatalog): Promise<void> => {
    const started = generation;
    try {
      const answer = await fetchCatalog(catalog);
      if (started !== generation) return;
      const rows = listRows<unknown>(answer);
      set((state) => ({ lists: { ...state.lists, [catalog]: { rows, loaded: true } } }));
    } catch (error) {
      if (started !== generation) return;
      console.error(`No se pudo cargar la lista ${catalog}`, error);
      set((state) => ({
        lists: { ...state.lists, [catalog]: { ...state.lists[catalog], loaded: true } },
        // One dialog at a time: a second failure while the first is shown adds nothing.
        loadError: state.loadError ?? describeListError(error),
      }));
    }
  };

  const reload = (catalog: ListCatalog): Promise<void> => {
    const current = running.get(catalog);
    if (current) {
      // The running load may have read the rows before the change: load once more after it.
      queued.add(catalog);
      return current;
    }
    const run = (async () => {
      do {
        queued.delete(catalog);
        await loadOnce(catalog);
      } while (queued.has(catalog));
    })().finally(() => {
      if (running.get(catalog) === run) running.delete(catalog);
    });
    running.set(catalog, run);
    return run;
  };

  const bump = (names: readonly CatalogName[]) =>
    set((state) => {
      const versions = { ...state.versions };
      for (const name of names) versions[name] += 1;
      return { versions };
    });

  const refreshStale = (names: readonly CatalogName[]) => {
    bump(names);
    for (const name of names) {
      for (const list of listCatalogsOf(name)) {
        if ((subscribers.get(list) ?? 0) > 0) void reload(list);
      }
    }
  };

  const openSocket = () => {
    const token = getToken();
    if (!token || lease) return;
    lease = acquireLiveSocket(token);
    const socket = lease.socket;
    let missedEvents = false;
    const onChanged = ({ catalog }: CatalogChangedPayload) => refreshStale(staleCatalogs(catalog));
    // A judge's block or an agent's attempt moves a team's ESTATUS without a catalogue change.
    const onTeam = (team: BoardTeam) =>
      set((state) => {
        const rows = patchTeamRows(state.lists.teams.rows, team);
        return rows === state.lists.teams.rows
          ? state
          : { lists: { ...state.lists, teams: { ...state.lists.teams, rows } } };
      });
    const onDisconnect = () => {
      missedEvents = true;
    };
    const onConnect = () => {
      // Changes made while the connection was down were never announced: refresh everything in use.
      if (missedEvents) refreshStale(CATALOGS);
      missedEvents = false;
    };
    socket.on(EVENTS.catalogChanged, onChanged);
    socket.on(EVENTS.teamUpdated, onTeam);
    socket.on('disconnect', onDisconnect);
    socket.on('connect', onConnect);
    detachSocket = () => {
      socket.off(EVENTS.catalogChanged, onChanged);
      socket.off(EVENTS.teamUpdated, onTeam);
      socket.off('disconnect', onDisconnect);
      socket.off('connect', onConnect);
    };
  };

  const closeSocket = () => {
    detachSocket?.();
    detachSocket = null;
    lease?.release();
    lease = null;
  };

  const subscribe = (catalog: ListCatalog) => {
    subscribers.set(catalog, (subscribers.get(catalog) ?? 0) + 1);
    openSocket();
    void reload(catalog);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      subscribers.set(catalog, (subscribers.get(catalog) ?? 1) - 1);
      const inUse = [...subscribers.values()].some((count) => count > 0);
      if (!inUse) closeSocket();
    };
  };

  return {
    lists: emptyLists(),
    versions: zeroVersions(),
    loadError: null,
    subscribe,
    reload,
    dismissError: () => set({ loadError: null }),
    reset: () => {
      closeSocket();
      generation += 1;
      subscribers.clear();
      running.clear();
      queued.clear();
      set({ lists: emptyLists(), versions: zeroVersions(), loadError: null });
    },
  };
});

// An ended session's lists are forgotten, and answers still on their way are dropped.
onSessionEnd(() => useCatalogStore.getState().reset());
