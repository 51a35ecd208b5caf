import {
  ALL_LEVELS_ROOM,
  BOARD_PUSH_WINDOW_MAX_MS,
  BOARD_PUSH_WINDOW_MS,
  LEVELS,
  levelRoom,
  type BoardTeam,
  type TeamRemovedPayload,
} from '@concurso/shared';
import type { BoardServer } from '../../realtime/socket.js';

/** Pushes remembered for screens that fall behind (about a minute at 10 pushes a second). */
const PUSH_HISTORY = 600;

/**
 * The board's push side (DESIGN.md section 6), one per app (the `board` plugin, board.plugin.ts, owns
 * it and hands it the Socket.IO server).
 *
 * Rows are gathered per window and pushed to this process's own sockets: one frame per window to the
 * screens of every level and one per level room to screens of a single level (`teams.updated`, or
 * `team.updated` for a single row), newest version of each team only. The window is adaptive: a
 * change on an idle board goes out on the next turn of the event loop, and while pushes follow each
 * other it lasts `BOARD_PUSH_WINDOW_MS`, or 3 times the last push's duration when that is longer (up
 * to `BOARD_PUSH_WINDOW_MAX_MS`), so fanning out to thousands of sockets cannot take the whole event
 * loop from the API.
 *
 * A screen that reads slower than the pushes come (a projector on poor Wi-Fi, an overloaded client)
 * is not sent frame after frame into a growing buffer: once it catches up it gets the newest row of
 * each team it missed in one frame (see `holdBackForLagging`).
 *
 * With several processes (Redis), a change is relayed to the other processes as data
 * (`serverSideEmit`) and each one pushes it in its own window: a screen gets one frame per window
 * whatever the number of processes, not one per process.
 */
export class BoardPublisher {
  private readonly pending = new Map<number, Map<number, BoardTeam>>();
  /** Pushes sent so far (`seq`) and the rows of the last `PUSH_HISTORY` of them, for slow screens. */
  private seq = 0;
  private history: Array<{ seq: number; rows: BoardTeam[] }> = [];
  /** Sockets that read slower than we push → the `seq` of the last push they were given. */
  private readonly lagging = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private lastFlushAt = 0;
  private lastFlushMs = 0;
  private relayQueue: BoardTeam[] = [];
  private relayScheduled = false;

  /**
   * @param io this process's Socket.IO server.
   * @param clustered true with the Redis adapter: changes are relayed to the other processes, and
   *   theirs (`board.rows`, `board.removed`, `board.reset`) are pushed to this process's own sockets.
   */
  constructor(
    private readonly io: BoardServer,
    private readonly clustered: boolean,
  ) {
    if (!clustered) return;
    io.on('board.rows', (rows) => rows.forEach((row) => this.enqueue(row, false)));
    io.on('board.removed', (payload) => this.removed(payload, false));
    io.on('board.reset', () => this.reset(false));
  }

  /** Adds a row to the window; `relay` false for rows that came from another process. */
  enqueue(team: BoardTeam, relay = true): void {
    let rows = this.pending.get(team.levels_id);
    if (!rows) this.pending.set(team.levels_id, (rows = new Map()));
    const held = rows.get(team.id);
    if (!held || held.version <= team.version) rows.set(team.id, team);
    if (relay && this.clustered) {
      this.relayQueue.push(team);
      if (!this.relayScheduled) {
        this.relayScheduled = true;
        setImmediate(() => this.relay());
      }
    }
    this.schedule();
  }

  /** The window now in force, in ms. */
  private windowMs(): number {
    return Math.min(BOARD_PUSH_WINDOW_MAX_MS, Math.max(BOARD_PUSH_WINDOW_MS, 3 * this.lastFlushMs));
  }

  /** Pushes what is gathered now (also before a removal or a reset, so events keep their order). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0 && this.lagging.size === 0) return;
    const started = performance.now();
    const all: BoardTeam[] = [];
    for (const rows of this.pending.values()) all.push(...rows.values());
    if (all.length > 0) {
      this.history.push({ seq: ++this.seq, rows: all });
      if (this.history.length > PUSH_HISTORY) this.history.shift();
    }
    const skip = this.holdBackForLagging(all.length > 0);
    for (const [levelsId, rows] of this.pending) {
      // Screens of one level (the projector's ?nivel=) get their level's frame...
      send(this.io.local.to(levelRoom(levelsId)).except([ALL_LEVELS_ROOM, ...skip]), [...rows.values()]);
    }
    // ...and screens of every level one frame with all of it.
    send(this.io.local.to(ALL_LEVELS_ROOM).except(skip), all);
    this.pending.clear();
    this.lastFlushMs = performance.now() - started;
    this.lastFlushAt = Date.now();
    if (this.lagging.size > 0) this.schedule(); // look again for screens that caught up
  }

  /**
   * Conflation for slow screens. A socket whose previous frame has not yet been taken by the kernel
   * (its transport is not writable: the screen reads slower than we push) is left out of the pushes
   * from then on; once it is writable again it gets, in one frame, the newest row of each team changed
   * since the last push it was given (or `board.reset`, to refetch the snapshot, when that is older
   * than the pushes kept). Sockets that caught up together at the same point share one encoded frame.
   * So a slow screen costs no memory per missed frame and still ends up showing the current board.
   * Answers the ids of the sockets to leave out of this push.
   */
  private holdBackForLagging(sentNow: boolean): string[] {
    const skip: string[] = [];
    const sockets = this.io.of('/').sockets;
    for (const id of this.lagging.keys()) if (!sockets.has(id)) this.lagging.delete(id);
    const caughtUp = new Map<string, { since: number; levels: number[] | null; ids: string[] }>();
    for (const socket of sockets.values()) {
      const backedUp = !socket.conn.transport.writable;
      const since = this.lagging.get(socket.id);
      if (since === undefined) {
        if (!backedUp || !sentNow) continue;
        this.lagging.set(socket.id, this.seq - 1); // it has (queued) everything before this push
        skip.push(socket.id);
        continue;
      }
      skip.push(socket.id);
      if (backedUp) continue;
      this.lagging.delete(socket.id);
      const levels = socket.rooms.has(ALL_LEVELS_ROOM)
        ? null
        : Object.values(LEVELS).filter((id) => socket.rooms.has(levelRoom(id)));
      const key = `${since}|${levels?.join(',') ?? 'all'}`;
      const group = caughtUp.get(key);
      if (group) group.ids.push(socket.id);
      else caughtUp.set(key, { since, levels, ids: [socket.id] });
    }
    for (const { since, levels, ids } of caughtUp.values()) {
      const target = this.io.local.to(ids);
      const oldest = this.history[0]?.seq ?? this.seq + 1;
      if (since < oldest - 1) {
        target.emit('board.reset');
        continue;
      }
      const newest = new Map<number, BoardTeam>();
      for (const { seq, rows } of this.history) {
        if (seq <= since) continue;
        for (const row of rows) {
          if (levels && !levels.includes(row.levels_id)) continue;
          const held = newest.get(row.id);
          if (!held || held.version <= row.version) newest.set(row.id, row);
        }
      }
      send(target, [...newest.values()]);
    }
    return skip;
  }

  /** A team left the board: drop its gathered row, push the rest, then tell the screens. */
  removed(payload: TeamRemovedPayload, relay = true): void {
    this.pending.get(payload.levels_id)?.delete(payload.id);
    for (const entry of this.history) entry.rows = entry.rows.filter((r) => r.id !== payload.id);
    this.flush();
    this.io.local.to(levelRoom(payload.levels_id)).emit('team.removed', payload);
    if (relay && this.clustered) {
      this.relay();
      this.io.serverSideEmit('board.removed', payload);
    }
  }

  /** Every screen refetches its snapshot. */
  reset(relay = true): void {
    this.flush();
    // Every screen refetches the whole snapshot after it: nothing before it needs catching up.
    this.history = [];
    this.lagging.clear();
    this.io.local.emit('board.reset');
    if (relay && this.clustered) {
      this.relay();
      this.io.serverSideEmit('board.reset');
    }
  }

  private schedule(): void {
    if (this.timer) return;
    // Idle for a whole window: go on the next turn (which still gathers rows of the same tick).
    const wait = Math.max(0, this.lastFlushAt + this.windowMs() - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  private relay(): void {
    this.relayScheduled = false;
    if (this.relayQueue.length === 0) return;
    const rows = this.relayQueue;
    this.relayQueue = [];
    this.io.serverSideEmit('board.rows', rows);
  }
}

/** One row as `team.updated`, several as `teams.updated`. */
function send(target: ReturnType<BoardServer['to']>, teams: BoardTeam[]): void {
  if (teams.length === 1) target.emit('team.updated', teams[0]!);
  else if (teams.length > 1) target.emit('teams.updated', teams);
}
