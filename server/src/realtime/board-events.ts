import type { BoardTeam, CatalogName, TeamRemovedPayload } from '@concurso/shared';
import { boardChannelOf } from '../modules/board/board.plugin.js';
import type { BoardServer } from './socket.js';

/*
 * Compatibility only (issue 11): the push channel is `app.board` (modules/board/board.plugin.ts).
 * These forward to the `board` plugin of the app whose Socket.IO server is `io`, and throw when it was
 * never registered. They remain for the call sites not yet switched (catalogs/catalog-routes.ts,
 * teams, members, users, exercises, processes) and the server tests; delete the file with the last one.
 */

/** @deprecated `app.board.teamUpdated(team)`. */
export function emitTeamUpdated(io: BoardServer, team: BoardTeam): void {
  boardChannelOf(io).teamUpdated(team);
}

/** @deprecated `app.board.flush()`. */
export function flushBoardEvents(io: BoardServer): void {
  boardChannelOf(io).flush();
}

/** @deprecated `app.board.teamRemoved(payload)`. */
export function emitTeamRemoved(io: BoardServer, payload: TeamRemovedPayload): void {
  boardChannelOf(io).teamRemoved(payload);
}

/** @deprecated `app.board.reset()`. */
export function emitBoardReset(io: BoardServer): void {
  boardChannelOf(io).reset();
}

/** @deprecated `app.board.catalogChanged(catalog)`. */
export function emitCatalogChanged(io: BoardServer, catalog: CatalogName): void {
  boardChannelOf(io).catalogChanged(catalog);
}
