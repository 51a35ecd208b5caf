import { levelRoom, type BoardTeam, type CatalogName, type TeamRemovedPayload } from '@concurso/shared';
import type { BoardServer } from './socket.js';

/**
 * Pushes a whole board row to every screen following its level (DESIGN.md section 6). Call it
 * after the transaction that changed the team has committed, with the row read inside it.
 */
export function emitTeamUpdated(io: BoardServer, team: BoardTeam): void {
  io.to(levelRoom(team.levels_id)).emit('team.updated', team);
}

/** Tells the screens of a level that a team left the board. */
export function emitTeamRemoved(io: BoardServer, payload: TeamRemovedPayload): void {
  io.to(levelRoom(payload.levels_id)).emit('team.removed', payload);
}

/** Tells every screen to refetch its snapshot (a catalogue changed). */
export function emitBoardReset(io: BoardServer): void {
  io.emit('board.reset');
}

/** Tells every open screen that `catalog` changed, so lists and selects of it refetch. */
export function emitCatalogChanged(io: BoardServer, catalog: CatalogName): void {
  io.emit('catalog.changed', { catalog });
}
