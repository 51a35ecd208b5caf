import { describe, expect, it } from 'vitest';
import { decodeBoardFrame, encodeBoardRow, type BoardTeam, type TeamAttempts } from '@concurso/shared';
import { boardTeam } from '@concurso/shared/test-support/board-team';
import { BoardReplica, finalStateMismatches, type HeldRow, type ReplicaEvent } from './board-replica.js';

const team = (id: number, version: number, attempts = 0, status = 1): BoardTeam =>
  boardTeam(id, { version, number_attempts: attempts }, status);
const snapshot = (...teams: BoardTeam[]): Pick<TeamAttempts, 'basico' | 'intermedio' | 'avanzado'> => ({
  basico: teams,
  intermedio: [],
  avanzado: [],
});
/** The events of a frame, decoded as the web store decodes them. */
const frame = (...teams: BoardTeam[]): ReplicaEvent[] =>
  decodeBoardFrame([1, 0, teams.map(encodeBoardRow)]).teams.map((t) => ({ type: 'updated', team: t }));

describe('BoardReplica', () => {
  it('drops a row older than the held one and takes the same or a newer version', () => {
    const applied: Array<[number, number]> = [];
    const replica = new BoardReplica((id, row) => applied.push([id, row.version]));
    replica.finishSnapshot(replica.beginSnapshot(), snapshot(team(1, 5, 10)));
    replica.receive(frame(team(1, 4, 8)));
    expect(replica.teams.get(1)).toMatchObject({ version: 5, number_attempts: 10 });
    replica.receive(frame(team(1, 5, 11), team(2, 1, 1)));
    replica.receive(frame(team(1, 7, 12, 2)));
    expect(replica.teams.get(1)).toMatchObject({ version: 7, number_attempts: 12, status_id: 2 });
    expect(replica.teams.get(2)).toMatchObject({ version: 1 });
    expect(applied).toEqual([
      [1, 5],
      [1, 5],
      [2, 1],
      [1, 7],
    ]);
  });

  it('replays the events received during a snapshot on top of it, even if the snapshot is older', () => {
    const replica = new BoardReplica();
    const seq = replica.beginSnapshot();
    replica.receive(frame(team(1, 9, 30)));
    expect(replica.teams.get(1)?.version).toBe(9);
    // The snapshot was read before the frame: the frame's row must survive it.
    replica.finishSnapshot(seq, snapshot(team(1, 8, 25), team(2, 3, 4)));
    expect(replica.teams.get(1)).toMatchObject({ version: 9, number_attempts: 30 });
    expect(replica.teams.get(2)).toMatchObject({ version: 3 });
    // No snapshot in flight any more: nothing is buffered for a later one.
    replica.receive(frame(team(2, 4, 5)));
    const next = replica.beginSnapshot();
    replica.finishSnapshot(next, snapshot(team(1, 9, 30), team(2, 4, 5)));
    expect(replica.snapshots).toBe(2);
  });

  it('ignores the answer of an older snapshot request and applies team.removed', () => {
    const replica = new BoardReplica();
    const first = replica.beginSnapshot();
    const second = replica.beginSnapshot();
    expect(replica.finishSnapshot(second, snapshot(team(1, 2), team(2, 2)))).toBe(true);
    expect(replica.finishSnapshot(first, snapshot(team(3, 1)))).toBe(false);
    expect([...replica.teams.keys()]).toEqual([1, 2]);
    replica.receive([{ type: 'removed', payload: { id: 2, levels_id: 1 } }]);
    expect([...replica.teams.keys()]).toEqual([1]);
  });

  it('drops the buffer when the snapshot fails', () => {
    const replica = new BoardReplica();
    replica.finishSnapshot(replica.beginSnapshot(), snapshot(team(1, 1)));
    const seq = replica.beginSnapshot();
    replica.receive(frame(team(1, 2, 3)));
    replica.failSnapshot(seq);
    const again = replica.beginSnapshot();
    replica.finishSnapshot(again, snapshot(team(1, 1)));
    // The failed snapshot's buffer is not replayed onto the next one.
    expect(replica.teams.get(1)?.version).toBe(1);
  });
});

describe('finalStateMismatches', () => {
  it('counts every team missing or differing in attempts or status', () => {
    const held = new Map<number, HeldRow>([
      [1, { version: 3, number_attempts: 10, status_id: 1, levels_id: 1 }],
      [2, { version: 3, number_attempts: 9, status_id: 1, levels_id: 1 }],
      [3, { version: 3, number_attempts: 4, status_id: 1, levels_id: 1 }],
    ]);
    const db = [
      { id: 1, number_attempts: 10, status_id: 1 },
      { id: 2, number_attempts: 10, status_id: 1 },
      { id: 3, number_attempts: 4, status_id: 2 },
      { id: 4, number_attempts: 0, status_id: 1 },
    ];
    expect(finalStateMismatches(held, db)).toBe(3);
    expect(finalStateMismatches(held, db.slice(0, 1))).toBe(0);
  });
});
