/**
 * The live board store (docs/design.md section 6): snapshot from `GET /api/teamAttempts`, then push events
 * (`board.frame`'s rows; `team.removed`). After every (re)connect the snapshot is fetched
 * again, so a dropped connection never leaves a stale board. Events that arrive while a snapshot is in
 * flight are applied at once and also buffered, then replayed on top of the snapshot: the snapshot may
 * have been read before them.
 *
 * The store does not acknowledge frames (`board.ack`): the shared socket does (`boardAckPolicy`), after
 * every holder's listeners ran (`live-socket.ts`), so the catalogue screens keep frames flowing too.
 * It hears the socket through the live bus (`api/live-bus.ts`), which decodes each frame once.
 */
import { create } from 'zustand';
import type { BoardTeam } from '@concurso/shared';
import { fetchTeamAttempts } from '../api/board-api';
import { describeError } from '../api/api-error';
import { acquireLiveSocket, type LiveSocketLease } from '../api/live-socket';
import { afterConnectError, afterDisconnect } from '../api/live-socket-policy';
import { onSessionEnd } from '../api/session-end';
import { getToken } from '../api/token-storage';
import {
  EMPTY_BOARD,
  applyBoardEvents,
  applySnapshot,
  boardFrameEvents,
  type BoardData,
  type BoardEvent,
} from './board-state';
import { connectionAfter, type ConnectionState } from './connection-state';

/** State and actions of the board store. */
export interface BoardStore extends BoardData {
  connection: ConnectionState;
  /** True once a snapshot (or its failure) has arrived since `start`. */
  loaded: boolean;
  /** Spanish text of the last snapshot failure; null after a good one. */
  error: string | null;
  /**
   * Opens the socket and loads the snapshot (the board screen mounts). `levels`: the socket
   * joins only those levels' rooms (the projector's `?nivel=`); default every level.
   */
  start: (levels?: readonly number[]) => void;
  /** Releases the socket and empties the board (the board screen unmounts, logout, an ended session). */
  stop: () => void;
  /** Fetches the snapshot again and replaces the board with it. */
  refresh: () => Promise<void>;
  /** Applies a row the client got from an HTTP answer (e.g. after a block), with the version rule. */
  applyTeam: (team: BoardTeam) => void;
}

// Connection bookkeeping lives outside the state: nothing renders from it.
/** The board's lease on the tab's shared socket (the catalogue screens use the same one). */
let lease: LiveSocketLease | null = null;
/** Removes the board's own subscription to the socket's bus (never the other users' ones). */
let detach: (() => void) | null = null;
/** Number of the newest snapshot request; answers of older ones are ignored. */
let snapshotSeq = 0;
/** Events received since the oldest in-flight snapshot request started; null when none is in flight. */
let pendingEvents: BoardEvent[] | null = null;

const initialState = {
  ...EMPTY_BOARD,
  connection: 'sin conexión' as ConnectionState,
  loaded: false,
  error: null,
};

export const useBoardStore = create<BoardStore>()((set, get) => {
  /** Applies `events` in one store update (one render however many rows), buffering them for a replay. */
  const receive = (events: readonly BoardEvent[]): void => {
    if (pendingEvents) for (const event of events) pendingEvents.push(event);
    set((state) => applyBoardEvents(state, events));
  };

  const refresh = async (): Promise<void> => {
    const seq = ++snapshotSeq;
    pendingEvents ??= [];
    try {
      const snapshot = await fetchTeamAttempts();
      if (seq !== snapshotSeq) return;
      const replay = pendingEvents ?? [];
      pendingEvents = null;
      set((state) => ({
        ...applyBoardEvents(applySnapshot(state, snapshot), replay),
        loaded: true,
        error: null,
      }));
    } catch (error) {
      if (seq !== snapshotSeq) return;
      pendingEvents = null;
      console.error('No se pudo cargar el tablero', error);
      set({ loaded: true, error: describeError(error) });
    }
  };

  const start = (levels?: readonly number[]): void => {
    get().stop();
    const token = getToken();
    if (!token) return;
    lease = acquireLiveSocket(token, levels);
    const { bus } = lease;
    // A socket another screen left open may already be connected: no 'connect' event will come.
    set({ connection: bus.status().connected ? 'conectado' : 'reconectando' });
    // The snapshot does not wait for the socket: the board shows even if the push channel is refused.
    void refresh();

    detach = bus.on({
      connect: () => {
        set({ connection: 'conectado' });
        void refresh();
      },
      // Only our own close, or an ended session, is final; the shared socket reconnects after anything
      // else, a server restart included (live-socket-policy.ts).
      disconnect: (reason) => set({ connection: connectionAfter(afterDisconnect(reason)) }),
      connectError: (error) => {
        const { active } = bus.status();
        if (!active) console.error('Conexión en vivo rechazada', error.message);
        set({ connection: connectionAfter(afterConnectError(error.message, active)) });
      },
      // One frame, however many rows: one store update, one render.
      teams: (rows) => receive(boardFrameEvents(rows)),
      teamRemoved: (payload) => receive([{ type: 'removed', payload }]),
      boardReset: () => void refresh(),
    });
  };

  const stop = (): void => {
    detach?.();
    detach = null;
    // The socket closes once no screen holds it any more.
    lease?.release();
    lease = null;
    snapshotSeq++;
    pendingEvents = null;
    set(initialState);
  };

  return {
    ...initialState,
    start,
    stop,
    refresh,
    applyTeam: (team) => receive([{ type: 'updated', team }]),
  };
});

// An ended session's board is not shown any more (the screen is leaving for the login page).
onSessionEnd(() => useBoardStore.getState().stop());
