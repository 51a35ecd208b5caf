import {
  ALL_LEVELS_ROOM,
  BOARD_PUSH_WINDOW_MS,
  levelRoom,
  type BoardTeam,
  type CatalogName,
  type TeamRemovedPayload,
} from '@concurso/shared';
import type { BoardServer } from './socket.js';

/**
 * Gathers board rows for `BOARD_PUSH_WINDOW_MS` and pushes them in one frame per window to the
 * screens of every level, and one per level room to screens of a single level (`teams.updated`, or
 * `team.updated` for a single row), keeping only the newest version of each team. Fanning every change out to thousands of sockets one by one would saturate the event loop;
 * a window of a few tens of ms bounds the frames per second whatever the attempt rate.
 */
class BoardPublisher {
  private readonly pending = new Map<number, Map<number, BoardTeam>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly io: BoardServer) {}

  enqueue(team: BoardTeam): void {
    let rows = this.pending.get(team.levels_id);
    if (!rows) this.pending.set(team.levels_id, (rows = new Map()));
    const held = rows.get(team.id);
    if (!held || held.version <= team.version) rows.set(team.id, team);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), BOARD_PUSH_WINDOW_MS);
      this.timer.unref();
    }
  }

  /** Sends what is gathered now (also before a removal or a reset, so events keep their order). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const all: BoardTeam[] = [];
    for (const [levelsId, rows] of this.pending) {
      const teams = [...rows.values()];
      all.push(...teams);
      // Screens of one level (the projector's ?nivel=) get their level's frame...
      send(this.io.to(levelRoom(levelsId)).except(ALL_LEVELS_ROOM), teams);
    }
    // ...and screens of every level one frame with all of it.
    if (all.length > 0) send(this.io.to(ALL_LEVELS_ROOM), all);
    this.pending.clear();
  }
}

/** One row as `team.updated`, several as `teams.updated`. */
function send(target: ReturnType<BoardServer['to']>, teams: BoardTeam[]): void {
  if (teams.length === 1) target.emit('team.updated', teams[0]!);
  else target.emit('teams.updated', teams);
}

const publishers = new WeakMap<BoardServer, BoardPublisher>();
const publisherOf = (io: BoardServer): BoardPublisher => {
  let publisher = publishers.get(io);
  if (!publisher) publishers.set(io, (publisher = new BoardPublisher(io)));
  return publisher;
};

/**
 * Pushes a whole board row to every screen following its level (DESIGN.md section 6), within
 * `BOARD_PUSH_WINDOW_MS`. Call it after the transaction that changed the team has committed, with the
 * row read inside it.
 */
export function emitTeamUpdated(io: BoardServer, team: BoardTeam): void {
  publisherOf(io).enqueue(team);
}

/** Sends any gathered rows at once (the server is closing). */
export function flushBoardEvents(io: BoardServer): void {
  publishers.get(io)?.flush();
}

/** Tells the screens of a level that a team left the board. */
export function emitTeamRemoved(io: BoardServer, payload: TeamRemovedPayload): void {
  flushBoardEvents(io);
  io.to(levelRoom(payload.levels_id)).emit('team.removed', payload);
}

/** Tells every screen to refetch its snapshot (a catalogue changed). */
export function emitBoardReset(io: BoardServer): void {
  flushBoardEvents(io);
  io.emit('board.reset');
}

/** Tells every open screen that `catalog` changed, so lists and selects of it refetch. */
export function emitCatalogChanged(io: BoardServer, catalog: CatalogName): void {
  io.emit('catalog.changed', { catalog });
}
