import { performance } from 'node:perf_hooks';
import {
  ALL_LEVELS_ROOM,
  BOARD_PUSH_CREDIT,
  clockMs,
  encodeBoardRow,
  levelRoom,
  type BoardFrame,
  type BoardRowTuple,
  type BoardTeam,
  type TeamRemovedPayload,
} from '@concurso/shared';
import { encodeEvent, writeEvent, type EncodedEvent } from '../../realtime/frame-writer.js';
import type { BoardServer, BoardSocket } from '../../realtime/socket.js';
import { FIRST_PUSH_WINDOW, nextPushWindow } from './push-tick.js';

/** The newest known row of one team, as this process last pushed (or is about to push) it. */
interface LatestRow {
  row: BoardTeam;
  /** `row` as its frame tuple, encoded once when the flush that pushes it is sealed. */
  tuple: BoardRowTuple | null;
  /** The flush that pushed it (0 while it waits for the next flush). */
  seq: number;
  /** Commit time (`clockMs()`) of the oldest change of it not pushed yet; 0 once pushed. */
  pendingSince: number;
}

/** Flow-control state of one screen (socket) of this process. */
interface Screen {
  socket: BoardSocket;
  /** The level ids it follows; null for every level (the `level:all` room). */
  levels: ReadonlySet<number> | null;
  /** `seq` of each frame sent and not acknowledged yet (at most `BOARD_PUSH_CREDIT`). */
  inflight: number[];
  /** `seq` of the last frame it was sent: the rows of later flushes are what it has not got. */
  lastSentSeq: number;
  /** Commit time of the oldest change it missed while out of credit; null while it gets every frame. */
  missedSince: number | null;
}

/**
 * The board's push side (docs/design.md section 6), one per app (the `board` plugin,
 * board.plugin.ts, owns it and hands it the Socket.IO server).
 *
 * **Latest state, one frame per room per flush.** Changed rows go into one map of the newest row of
 * each team. Every flush seals what changed into one `board.frame` (board-frame.ts: `[seq,
 * committed_at, tuple rows]`) per level room and one with every level for the boards (`level:all`),
 * each encoded once and written as the same WebSocket frame bytes to every socket of the room
 * (realtime/frame-writer.ts).
 *
 * **Adaptive flush, no clock.** A change on an idle publisher (its last flush's window is over) goes
 * out on the next turn of the event loop (`setImmediate`, which still gathers the rows committed in the
 * same turn). Changes that come while a flush's window runs gather into the next frame, sent when it
 * ends; the window is twice the averaged flush time (pushing takes at most a third of the loop) and
 * grows towards `BOARD_PUSH_WINDOW_MAX_MS` while the event loop stays saturated (push-tick.ts), so the
 * push yields to the API under load instead of taking the loop from it. A screen out of credit gathers
 * on its own: its changes wait in its catch-up frame (below).
 *
 * **Flow control by credit.** Each screen acknowledges the frames it applied (`board.ack`). One with
 * `BOARD_PUSH_CREDIT` frames unacknowledged gets no more (a projector on poor Wi-Fi, an overloaded
 * browser); when it acknowledges again it gets one catch-up frame with the newest row of every team
 * of its levels that changed after the last frame it was sent, taken from the latest-state map. So a
 * slow screen costs memory bounded by the teams, never by the frames, and still ends up current.
 *
 * **Several processes (Redis).** A change is relayed to the other processes as rows
 * (`serverSideEmit`), and each process pushes its own screens: a screen gets one frame per flush of its
 * process whatever the number of processes.
 */
export class BoardPublisher {
  private readonly latest = new Map<number, LatestRow>();
  /** Teams changed since the last flush. */
  private readonly pending = new Set<number>();
  private readonly screens = new Map<string, Screen>();
  /** Screens that acknowledged after missing frames: each gets a catch-up frame at the next flush. */
  private readonly catchUps = new Set<Screen>();
  private seq = 0;
  /** The next flush, when one is due: at the end of the window (`timer`) or on the next turn (`immediate`). */
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  /** When the last flush ended (`performance.now()`, ms). */
  private lastFlushAt = 0;
  /** The window now in force, adapted after every flush (push-tick.ts). */
  private window = FIRST_PUSH_WINDOW;
  /** Event-loop utilisation mark of the last flush, to read the utilisation since then. */
  private eluMark = performance.eventLoopUtilization();
  private relayQueue: BoardTeam[] = [];
  private relayCommittedAt = 0;
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
    io.on('connection', (socket) => this.attach(socket));
    if (!clustered) return;
    io.on('board.rows', (rows, committedAt) => rows.forEach((row) => this.enqueue(row, committedAt, false)));
    io.on('board.removed', (payload) => this.removed(payload, false));
    io.on('board.reset', () => this.reset(false));
  }

  /**
   * Adds a changed row for the next flush; the newest `version` of each team wins.
   * @param committedAt when its transaction committed, ms on `clockMs()`.
   * @param relay false for rows that came from another process.
   */
  enqueue(team: BoardTeam, committedAt = clockMs(), relay = true): void {
    const held = this.latest.get(team.id);
    if (!held) {
      this.latest.set(team.id, { row: team, tuple: null, seq: 0, pendingSince: committedAt });
      this.pending.add(team.id);
    } else if (held.row.version <= team.version) {
      held.row = team;
      held.tuple = null;
      if (!this.pending.has(team.id)) {
        this.pending.add(team.id);
        held.pendingSince = committedAt;
      }
    }
    if (relay && this.clustered) {
      if (this.relayQueue.length === 0) this.relayCommittedAt = committedAt;
      this.relayQueue.push(team);
      if (!this.relayScheduled) {
        this.relayScheduled = true;
        setImmediate(() => this.relay());
      }
    }
    this.schedule();
  }

  /**
   * Adapts the window to a flush that took `flushMs` and to the event loop's utilisation since the
   * last flush (push-tick.ts `nextPushWindow`): two `eventLoopUtilization` reads, no sampling timer.
   */
  private adaptWindow(flushMs: number): void {
    const mark = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(mark, this.eluMark).utilization;
    this.eluMark = mark;
    this.window = nextPushWindow(this.window, busy, flushMs);
  }

  /** Seals and pushes what gathered now (also before a removal or a reset, so events keep their order). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (this.pending.size === 0 && this.catchUps.size === 0) return;
    const catchingUp = [...this.catchUps];
    this.catchUps.clear();
    const started = performance.now();
    const seq = ++this.seq;

    // Seal the frame: changed rows, per level, with the oldest commit among them.
    const byLevel = new Map<number, { tuples: BoardRowTuple[]; since: number }>();
    let since = Infinity;
    for (const id of this.pending) {
      const entry = this.latest.get(id)!;
      entry.seq = seq;
      entry.tuple = encodeBoardRow(entry.row);
      since = Math.min(since, entry.pendingSince);
      let level = byLevel.get(entry.row.levels_id);
      if (!level) byLevel.set(entry.row.levels_id, (level = { tuples: [], since: Infinity }));
      level.tuples.push(entry.tuple);
      level.since = Math.min(level.since, entry.pendingSince);
      entry.pendingSince = 0;
    }
    this.pending.clear();

    // Screens that acknowledged after missing frames get their catch-up frame instead of this flush's.
    const excluded = new Set<string>();
    for (const screen of catchingUp) excluded.add(screen.socket.id);
    this.sendCatchUps(seq, catchingUp);

    if (byLevel.size > 0) {
      // Screens of every level get one frame with all of it...
      const all: BoardRowTuple[] = [];
      for (const level of byLevel.values()) all.push(...level.tuples);
      this.sendRoom(ALL_LEVELS_ROOM, [seq, since, all], excluded, null);
      // ...and screens of some levels (the projector's ?nivel=) their levels' frames.
      for (const [levelsId, level] of byLevel) {
        this.sendRoom(levelRoom(levelsId), [seq, level.since, level.tuples], excluded, ALL_LEVELS_ROOM);
      }
    }
    this.lastFlushAt = performance.now();
    this.adaptWindow(this.lastFlushAt - started);
  }

  /**
   * Encodes `frame` once and writes it to the sockets of `room` (except those in `skipRoom`, which got
   * theirs in another frame), leaving out screens without credit: they are marked as having missed it.
   */
  private sendRoom(room: string, frame: BoardFrame, excluded: Set<string>, skipRoom: string | null): void {
    const rooms = this.io.of('/').adapter.rooms;
    const members = rooms.get(room);
    if (!members || members.size === 0) return;
    const skipped = skipRoom ? rooms.get(skipRoom) : undefined;
    let encoded: EncodedEvent<'board.frame'> | null = null;
    for (const id of members) {
      if (excluded.has(id) || skipped?.has(id)) continue;
      // Not attached yet: still in its handshake, and the snapshot it loads once connected is newer.
      const screen = this.screens.get(id);
      if (!screen) continue;
      if (screen.missedSince !== null || screen.inflight.length >= BOARD_PUSH_CREDIT) {
        screen.missedSince = Math.min(screen.missedSince ?? Infinity, frame[1]);
        continue;
      }
      screen.inflight.push(frame[0]);
      screen.lastSentSeq = frame[0];
      encoded ??= encodeEvent('board.frame', frame);
      writeEvent(screen.socket, encoded);
    }
  }

  /**
   * One catch-up frame per group of screens that missed frames from the same point and follow the
   * same levels (sockets that caught up together share one encoded frame): the newest row of each
   * team of their levels pushed after the last frame they were sent.
   */
  private sendCatchUps(seq: number, screens: Screen[]): void {
    const groups = new Map<string, Screen[]>();
    for (const screen of screens) {
      const key = `${screen.lastSentSeq}|${screen.levels ? [...screen.levels].join(',') : 'all'}`;
      const group = groups.get(key);
      if (group) group.push(screen);
      else groups.set(key, [screen]);
    }
    for (const group of groups.values()) {
      const { lastSentSeq, levels } = group[0]!;
      const rows: BoardRowTuple[] = [];
      for (const entry of this.latest.values()) {
        if (entry.seq > lastSentSeq && entry.tuple && (!levels || levels.has(entry.row.levels_id))) {
          rows.push(entry.tuple);
        }
      }
      const since = Math.min(...group.map((screen) => screen.missedSince ?? Infinity));
      for (const screen of group) {
        screen.missedSince = null;
        if (rows.length === 0) continue;
        screen.inflight.push(seq);
        screen.lastSentSeq = seq;
      }
      if (rows.length === 0) continue;
      const encoded = encodeEvent('board.frame', [seq, Number.isFinite(since) ? since : clockMs(), rows]);
      for (const screen of group) writeEvent(screen.socket, encoded);
    }
  }

  /** Starts following a screen's acknowledgements (every socket, after its handshake). */
  private attach(socket: BoardSocket): void {
    const levels = socket.rooms.has(ALL_LEVELS_ROOM)
      ? null
      : new Set(
          [...socket.rooms].filter((room) => room.startsWith('level:')).map((room) => Number(room.slice(6))),
        );
    const screen: Screen = { socket, levels, inflight: [], lastSentSeq: this.seq, missedSince: null };
    this.screens.set(socket.id, screen);
    socket.on('board.ack', (seq) => {
      if (typeof seq !== 'number') return;
      screen.inflight = screen.inflight.filter((sent) => sent > seq);
      if (screen.missedSince !== null && screen.inflight.length < BOARD_PUSH_CREDIT) {
        this.catchUps.add(screen);
        this.schedule();
      }
    });
    socket.once('disconnect', () => {
      this.screens.delete(socket.id);
      this.catchUps.delete(screen);
    });
  }

  /** A team left the board: forget it, push the rest, then tell the screens. */
  removed(payload: TeamRemovedPayload, relay = true): void {
    this.pending.delete(payload.id);
    this.latest.delete(payload.id);
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
    this.latest.clear();
    this.catchUps.clear();
    for (const screen of this.screens.values()) {
      screen.inflight = [];
      screen.missedSince = null;
      screen.lastSentSeq = this.seq;
    }
    this.io.local.emit('board.reset');
    if (relay && this.clustered) {
      this.relay();
      this.io.serverSideEmit('board.reset');
    }
  }

  /**
   * Makes sure a flush is due. The last flush's window over (an idle publisher): on the next turn of the
   * event loop, after the rest of this turn's changes. Otherwise at the window's end, gathering
   * meanwhile. Timers have a 1 ms resolution: less than that left goes on the next turn too.
   */
  private schedule(): void {
    if (this.timer || this.immediate) return;
    const wait = this.lastFlushAt + this.window.windowMs - performance.now();
    if (wait < 1) {
      this.immediate = setImmediate(() => this.flush());
      this.immediate.unref();
      return;
    }
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  private relay(): void {
    this.relayScheduled = false;
    if (this.relayQueue.length === 0) return;
    const rows = this.relayQueue;
    this.relayQueue = [];
    this.io.serverSideEmit('board.rows', rows, this.relayCommittedAt);
  }
}
