/**
 * What one FULL screen of the load tester holds: the web's live board store, minus React.
 * The rules are those of web/src/stores/board-store.ts and board-state.ts, copied rather than imported
 * (the bench imports no web code):
 * - a snapshot (`GET /api/teamAttempts`) replaces everything; events received while it is in flight
 *   are applied at once AND buffered, then replayed on top of the snapshot (it may predate them); an
 *   answer to an older snapshot request than the newest is ignored;
 * - a pushed row (each row of a `board.frame`) is dropped when its `version` is older than the held
 *   row's, applied otherwise (same or newer version, or a team not held);
 * - `team.removed` deletes the row; `board.reset` and every (re)connect fetch the snapshot again.
 * `onApplied` is told of every row the replica took (pushed or from a snapshot), for the matching of
 * requests to arrivals (matching.ts).
 */
import {
  BOARD_LEVEL_KEYS,
  type BoardTeam,
  type TeamAttempts,
  type TeamRemovedPayload,
} from '@concurso/shared';

/** One push event as the web store buffers it. */
export type ReplicaEvent =
  { type: 'updated'; team: BoardTeam } | { type: 'removed'; payload: TeamRemovedPayload };

/** The fields of a held row that the final-state check compares (and the version rule reads). */
export interface HeldRow {
  version: number;
  number_attempts: number;
  status_id: number;
  levels_id: number;
}

/** A full screen's board. */
export class BoardReplica {
  /** Team id -> held row. */
  readonly teams = new Map<number, HeldRow>();
  /** Snapshots applied (first load, reconnects, resets). */
  snapshots = 0;
  private snapshotSeq = 0;
  private pending: ReplicaEvent[] | null = null;

  /** @param onApplied called for every row taken (not for dropped ones). */
  constructor(private readonly onApplied: (team: number, row: HeldRow) => void = () => undefined) {}

  /** A snapshot request starts: answers its number, to pass to `finishSnapshot` / `failSnapshot`. */
  beginSnapshot(): number {
    this.pending ??= [];
    return ++this.snapshotSeq;
  }

  /**
   * Applies the answer of snapshot request `seq` and replays the events received since the oldest
   * request in flight started. False (nothing changes) when a newer request was made meanwhile.
   */
  finishSnapshot(seq: number, snapshot: Pick<TeamAttempts, 'basico' | 'intermedio' | 'avanzado'>): boolean {
    if (seq !== this.snapshotSeq) return false;
    const replay = this.pending ?? [];
    this.pending = null;
    this.teams.clear();
    for (const key of BOARD_LEVEL_KEYS) {
      for (const row of snapshot[key] ?? []) this.take(row);
    }
    this.snapshots++;
    this.applyEvents(replay, false);
    return true;
  }

  /** Snapshot request `seq` failed: the buffered events are dropped (as the web store does). */
  failSnapshot(seq: number): void {
    if (seq === this.snapshotSeq) this.pending = null;
  }

  /** Applies pushed events in arrival order (buffered too while a snapshot is in flight). */
  receive(events: readonly ReplicaEvent[]): void {
    this.applyEvents(events, true);
  }

  private applyEvents(events: readonly ReplicaEvent[], buffer: boolean): void {
    if (buffer && this.pending) for (const event of events) this.pending.push(event);
    for (const event of events) {
      if (event.type === 'updated') {
        const held = this.teams.get(event.team.id);
        if (held && event.team.version < held.version) continue;
        this.take(event.team);
      } else {
        this.teams.delete(event.payload.id);
      }
    }
  }

  private take(team: BoardTeam): void {
    const row: HeldRow = {
      // normalizeTeam of board-state.ts: a missing version counts as 0.
      version: typeof team.version === 'number' ? team.version : 0,
      number_attempts: team.number_attempts,
      status_id: team.status_team.id,
      levels_id: team.levels_id,
    };
    this.teams.set(team.id, row);
    this.onApplied(team.id, row);
  }
}

/** A team's row in the database, as the final-state check reads it (`teams` table). */
export interface DatabaseTeam {
  id: number;
  number_attempts: number;
  status_id: number;
}

/**
 * Teams of `expected` whose held row differs from the database's (missing, another `number_attempts`
 * or another status): each is one lost change on this screen (`final_state_mismatches`).
 */
export function finalStateMismatches(
  held: ReadonlyMap<number, Pick<HeldRow, 'number_attempts' | 'status_id'>>,
  expected: readonly DatabaseTeam[],
): number {
  let mismatches = 0;
  for (const team of expected) {
    const row = held.get(team.id);
    if (!row || row.number_attempts !== team.number_attempts || row.status_id !== team.status_id)
      mismatches++;
  }
  return mismatches;
}
