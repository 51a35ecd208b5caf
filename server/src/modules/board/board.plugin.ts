import fp from 'fastify-plugin';
import type { BoardTeam, CatalogName, TeamRemovedPayload } from '@concurso/shared';
import { BoardPublisher } from './board-publisher.js';

/**
 * What the rest of the server tells the screens (docs/design.md section 6), as `app.board`. Call it after
 * the transaction that made the change has committed, with rows read inside that transaction.
 */
interface BoardChannel {
  /**
   * Pushes a whole board row to every screen following its level, in the next flush's `board.frame`
   * (on the next turn of the event loop when the publisher is idle, else at the end of its window: at
   * most `BOARD_PUSH_WINDOW_MAX_MS`, board-publisher.ts), stamped with now as its commit time; the
   * newest `version` of each team wins.
   */
  teamUpdated(team: BoardTeam): void;
  /** Tells the screens of a level that a team left it (`team.removed`), after the rows gathered so far. */
  teamRemoved(payload: TeamRemovedPayload): void;
  /** Every screen refetches its snapshot (`board.reset`): a catalogue changed what the board shows. */
  reset(): void;
  /** Tells every open screen that `catalog` changed (`catalog.changed`), so its lists and selects refetch. */
  catalogChanged(catalog: CatalogName): void;
  /** Runs `listener` in this process after each `catalogChanged` (the agents' channel). */
  onCatalogChanged(listener: (catalog: CatalogName) => void): void;
  /** Sends what is gathered now instead of at the end of the window (closing; tests). */
  flush(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The live board's push side (board.plugin.ts). */
    board: BoardChannel;
  }
}

/**
 * The `board` plugin: owns this app's one `BoardPublisher` (board-publisher.ts) on the Socket.IO
 * server of the `socket` plugin, relaying through Redis when the app has it, and decorates `app.board`.
 * When the Redis link comes back, this process's own screens refetch their snapshot (rows relayed
 * meanwhile never reached the other processes' screens, and each process resets its own); when the
 * app closes, gathered rows are pushed before the sockets close.
 */
export default fp(
  async (app) => {
    const publisher = new BoardPublisher(app.io, app.redis !== undefined);
    app.onRedisRecovered(() => publisher.reset(false));
    app.onSocketsClosing(() => publisher.flush());
    const catalogListeners: Array<(catalog: CatalogName) => void> = [];
    const channel: BoardChannel = {
      teamUpdated: (team) => publisher.enqueue(team),
      teamRemoved: (payload) => publisher.removed(payload),
      reset: () => publisher.reset(),
      catalogChanged: (catalog) => {
        app.io.emit('catalog.changed', { catalog });
        catalogListeners.forEach((listener) => listener(catalog));
      },
      onCatalogChanged: (listener) => void catalogListeners.push(listener),
      flush: () => publisher.flush(),
    };
    app.decorate('board', channel);
  },
  { name: 'board', dependencies: ['socket'] },
);
