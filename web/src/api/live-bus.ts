import {
  EVENTS,
  decodeBoardFrame,
  type BoardFrame,
  type BoardTeam,
  type CatalogChangedPayload,
  type TeamRemovedPayload,
} from '@concurso/shared';
import { listenTo, type ListenableSocket } from './socket-listeners';

/**
 * What the live bus tells the stores (one frame was decoded by three listeners): the push
 * channel's events, each `board.frame` decoded once for every subscriber, and the socket's own.
 */
export interface LiveBusListeners {
  /** The rows of one `board.frame` (docs/design.md section 6), decoded once. */
  teams: (rows: readonly BoardTeam[]) => void;
  teamRemoved: (payload: TeamRemovedPayload) => void;
  /** Another contest was activated: a board starts over from a snapshot. */
  boardReset: () => void;
  catalogChanged: (payload: CatalogChangedPayload) => void;
  connect: () => void;
  disconnect: (reason: string) => void;
  connectError: (error: Error) => void;
}

/** The one receiver of a socket's events, feeding every subscriber (as outline's WebsocketProvider does). */
export interface LiveBus {
  /** Subscribes `listeners` (any of them); answers the function that removes exactly them. */
  on(listeners: Partial<LiveBusListeners>): () => void;
  /** Stops receiving the socket's events (the socket is being closed). */
  close(): void;
}

type Subscriber = Partial<LiveBusListeners>;

/**
 * The bus of `socket` (live-socket.ts makes one per shared socket, after its own acknowledging and
 * session-watching listeners): one listener per event on the socket, whatever the number of
 * subscribers; a frame is decoded only when someone wants its rows, and once for all of them.
 */
export function createLiveBus(socket: ListenableSocket): LiveBus {
  const subscribers = new Set<Subscriber>();
  const each = <K extends keyof LiveBusListeners>(name: K, ...args: Parameters<LiveBusListeners[K]>) => {
    // A copy: a subscriber may unsubscribe (or subscribe another) while it is told.
    for (const subscriber of [...subscribers]) {
      const listener = subscriber[name] as ((...values: Parameters<LiveBusListeners[K]>) => void) | undefined;
      listener?.(...args);
    }
  };
  const close = listenTo(socket, {
    [EVENTS.boardFrame]: (frame: BoardFrame) => {
      if (![...subscribers].some((subscriber) => subscriber.teams)) return;
      each('teams', decodeBoardFrame(frame).teams);
    },
    [EVENTS.teamRemoved]: (payload: TeamRemovedPayload) => each('teamRemoved', payload),
    [EVENTS.boardReset]: () => each('boardReset'),
    [EVENTS.catalogChanged]: (payload: CatalogChangedPayload) => each('catalogChanged', payload),
    connect: () => each('connect'),
    disconnect: (reason: string) => each('disconnect', reason),
    connect_error: (error: Error) => each('connectError', error),
  });
  return {
    on(listeners) {
      subscribers.add(listeners);
      return () => {
        subscribers.delete(listeners);
      };
    },
    close,
  };
}
