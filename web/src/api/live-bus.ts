import {
  EVENTS,
  decodeBoardFrame,
  type BoardFrame,
  type BoardTeam,
  type CatalogChangedPayload,
  type SessionEndedPayload,
  type TeamRemovedPayload,
} from '@concurso/shared';
import type { LiveSocket } from './open-live-socket';

/**
 * What the live bus tells its subscribers: the push channel's events, each `board.frame` decoded once
 * for every subscriber, and the socket's own. The stores and the socket's own watch (acks, session,
 * retries in `live-socket.ts`) subscribe the same way.
 */
export interface LiveBusListeners {
  /** A `board.frame` as it came (its seq is what `board.ack` acknowledges). */
  frame: (frame: BoardFrame) => void;
  /** The rows of one `board.frame` (docs/design.md section 6), decoded once. */
  teams: (rows: readonly BoardTeam[]) => void;
  teamRemoved: (payload: TeamRemovedPayload) => void;
  /** Another contest was activated: a board starts over from a snapshot. */
  boardReset: () => void;
  catalogChanged: (payload: CatalogChangedPayload) => void;
  /** The server ended the socket's session (a password change, a logout elsewhere). */
  sessionEnded: (payload: SessionEndedPayload) => void;
  connect: () => void;
  disconnect: (reason: string) => void;
  connectError: (error: Error) => void;
}

/** The socket's state, as a subscriber may read it: `connected` (handshake done), `active` (retrying or connected). */
interface LiveStatus {
  connected: boolean;
  active: boolean;
}

/** The one receiver of a socket's events, feeding every subscriber (as outline's WebsocketProvider does). */
export interface LiveBus {
  /**
   * Subscribes `listeners` (any of them); answers the function that removes exactly them. Subscribers
   * are told in subscription order.
   */
  on(listeners: Partial<LiveBusListeners>): () => void;
  /** The socket's state now (a socket another screen left open may be connected already). */
  status(): LiveStatus;
  /** Stops receiving the socket's events (the socket is being closed). */
  close(): void;
}

/** The part of the socket the bus uses (tests pass a fake). */
export type BusSocket = Pick<LiveSocket, 'on' | 'off' | 'connected' | 'active'>;

type Subscriber = Partial<LiveBusListeners>;

/**
 * The bus of `socket` (live-socket.ts makes one per shared socket): the only code attaching listeners
 * to it, one per event whatever the number of subscribers; a frame is decoded only when someone wants
 * its rows, and once for all of them.
 */
export function createLiveBus(socket: BusSocket): LiveBus {
  const subscribers = new Set<Subscriber>();
  const each = <K extends keyof LiveBusListeners>(name: K, ...args: Parameters<LiveBusListeners[K]>) => {
    // A copy: a subscriber may unsubscribe (or subscribe another) while it is told.
    for (const subscriber of [...subscribers]) {
      const listener = subscriber[name] as ((...values: Parameters<LiveBusListeners[K]>) => void) | undefined;
      listener?.(...args);
    }
  };
  const listeners: Record<string, (...args: never[]) => void> = {
    [EVENTS.boardFrame]: (frame: BoardFrame) => {
      each('frame', frame);
      if (![...subscribers].some((subscriber) => subscriber.teams)) return;
      each('teams', decodeBoardFrame(frame).teams);
    },
    [EVENTS.teamRemoved]: (payload: TeamRemovedPayload) => each('teamRemoved', payload),
    [EVENTS.boardReset]: () => each('boardReset'),
    [EVENTS.catalogChanged]: (payload: CatalogChangedPayload) => each('catalogChanged', payload),
    [EVENTS.sessionEnded]: (payload: SessionEndedPayload) => each('sessionEnded', payload),
    connect: () => each('connect'),
    disconnect: (reason: string) => each('disconnect', reason),
    connect_error: (error: Error) => each('connectError', error),
  };
  // socket.io types `on`/`off` per event name; the map above keeps each listener typed by its event.
  const untyped = socket as unknown as {
    on: (event: string, listener: unknown) => void;
    off: (event: string, listener: unknown) => void;
  };
  for (const [event, listener] of Object.entries(listeners)) untyped.on(event, listener);
  return {
    on(subscriber) {
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },
    status: () => ({ connected: socket.connected, active: socket.active }),
    close() {
      for (const [event, listener] of Object.entries(listeners)) untyped.off(event, listener);
      subscribers.clear();
    },
  };
}
