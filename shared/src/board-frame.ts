import { BOARD_ACK_EVERY, TEAM_STATUS_NAMES } from './constants.js';
import type { AgentAlert, BoardTeam } from './schemas/board.js';

/**
 * The board's push frame (docs/design.md section 6): what `board.frame` carries. Compact on
 * purpose: a frame goes to every open screen several times a second, so each row is a tuple instead
 * of an object with field names (about a quarter of the bytes), and the header comes first so a
 * reader that only needs the sequence and the commit time (a load tester's lean screen) stops there.
 *
 * Encoded once per level room per push tick and written as the same bytes to every socket of it.
 */

/**
 * One board row as a tuple, in this order:
 * `[id, version, levels_id, number_attempts, status_id, agent, name, new_program?]`.
 * `status_id` is a `TEAM_STATUS` value; its Spanish name comes from `TEAM_STATUS_NAMES`. `agent` is
 * `AGENT_CODES`: 1 online, 0 offline, 2 offline with the `sin_senal` alert, 3 with `detenido`,
 * 4 with `sin_reanudar` (a stop of the active contest past the silent agent's window).
 */
export type BoardRowTuple = [
  id: number,
  version: number,
  levels_id: number,
  number_attempts: number,
  status_id: number,
  agent: number,
  name: string,
  /**
   * «programa nuevo» as `[name, at]` (`BoardTeam.new_program`: at in ms since the epoch); left out
   * when the team has none, so a row without it costs nothing more.
   */
  new_program?: [name: string, at: number],
];

/** The tuple's `agent` code of an agent offline with each alert. */
const AGENT_CODES: Record<AgentAlert, number> = { sin_senal: 2, detenido: 3, sin_reanudar: 4 };
const ALERT_OF_CODE = new Map<number, AgentAlert>(
  Object.entries(AGENT_CODES).map(([alert, code]) => [code, alert as AgentAlert]),
);

/**
 * A push frame: `[seq, committed_at, rows]`.
 * - `seq`: the push tick's number in the server process that sent it (grows by one per tick; a screen
 *   following one level sees gaps). The screen acknowledges it with `board.ack` once applied.
 * - `committed_at`: when the oldest change in the frame was committed, in ms on the sending server's
 *   clock (`clockMs()`): push latency is measured from it.
 * - `rows`: the newest row of each team that changed, as `BoardRowTuple`s.
 */
export type BoardFrame = [seq: number, committed_at: number, rows: BoardRowTuple[]];

/**
 * The server clock frames are stamped with, in ms: `performance.timeOrigin + performance.now()`, a
 * monotonic clock (it never jumps back with NTP) on the Unix epoch's scale, so processes on one machine
 * (server processes, a load tester) read comparable times. Works in Node.js and in browsers.
 */
export function clockMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A board row as its frame tuple. */
export function encodeBoardRow(team: BoardTeam): BoardRowTuple {
  const row: BoardRowTuple = [
    team.id,
    team.version,
    team.levels_id,
    team.number_attempts,
    team.status_team.id,
    team.agent_online ? 1 : team.agent_alert ? AGENT_CODES[team.agent_alert] : 0,
    team.name,
  ];
  if (team.new_program) row.push([team.new_program.name, team.new_program.at]);
  return row;
}

/** A frame tuple as the board row it stands for (the inverse of `encodeBoardRow`). */
export function decodeBoardRow(row: BoardRowTuple): BoardTeam {
  const [id, version, levels_id, number_attempts, statusId, agent, name, newProgram] = row;
  return {
    id,
    name,
    levels_id,
    number_attempts,
    status_team: { id: statusId, status: TEAM_STATUS_NAMES[statusId] ?? String(statusId) },
    agent_online: agent === 1,
    agent_alert: ALERT_OF_CODE.get(agent) ?? null,
    version,
    ...(newProgram ? { new_program: { name: newProgram[0], at: newProgram[1] } } : {}),
  };
}

/** A frame's header and decoded rows. */
export interface DecodedBoardFrame {
  seq: number;
  /** ms on the sending server's clock (`clockMs()`). */
  committedAt: number;
  teams: BoardTeam[];
}

/** Decodes a `board.frame` payload. */
export function decodeBoardFrame(frame: BoardFrame): DecodedBoardFrame {
  const [seq, committedAt, rows] = frame;
  return { seq, committedAt, teams: rows.map(decodeBoardRow) };
}

/**
 * The screens' acknowledgement rule, one per socket connection: call it with each applied
 * frame's `seq`; it answers the `seq` to send in `board.ack` now (every `BOARD_ACK_EVERY`-th frame),
 * or null. With `BOARD_PUSH_CREDIT` = 2 × `BOARD_ACK_EVERY`, a screen that keeps up always has credit.
 */
export function boardAckPolicy(): (seq: number) => number | null {
  let unacknowledged = 0;
  return (seq) => {
    unacknowledged += 1;
    if (unacknowledged < BOARD_ACK_EVERY) return null;
    unacknowledged = 0;
    return seq;
  };
}
