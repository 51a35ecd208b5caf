import { io, type Socket } from 'socket.io-client';
import {
  BOARD_LEVEL_KEYS,
  EVENTS,
  SOCKET_PATH,
  type BoardTeam,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type TeamAttempts,
  type TeamRemovedPayload,
  boardAckPolicy,
  decodeBoardFrame,
} from '@concurso/shared';

/**
 * A judge's board as the web keeps it (web/src/stores/board-store.ts and board-state.ts), without the
 * browser: a snapshot from `GET /api/teamAttempts` after every connect and reconnect and on
 * `board.reset`, then the rows of each `board.frame` (acknowledged with `board.ack` as the web does) and `team.removed` upserts that keep the row with
 * the higher `version`. Events that arrive while a snapshot is in flight are applied and replayed on
 * top of it. The socket reconnects by itself, as the web's does: socket.io-client after a dropped
 * transport, and (web/src/api/live-socket.ts and live-socket-policy.ts) a refused handshake other than
 * 'unauthorized', or a bare server disconnect, is connected again after 1 s, 2 s, 4 s... up to 10 s.
 */

/** Wait before the `attempt`-th (0-based) reconnection of an inactive socket, as the web's (ms). */
const retryDelayMs = (attempt: number) => Math.min(10_000, 1_000 * 2 ** Math.max(0, attempt));
export class BoardClient {
  /** The board: team id → row. */
  readonly teams = new Map<number, BoardTeam>();
  /** Times (`Date.now()`, ms) the socket connected, the first included. */
  readonly connects: number[] = [];
  /** Why the socket dropped, each time it did (socket.io's reasons). */
  readonly disconnects: string[] = [];
  /** Refused handshakes (socket.io's messages); after one with `active` false no retry follows. */
  readonly connectErrors: string[] = [];
  /** Snapshots that failed, with the reason (the web shows an error and does not retry by itself). */
  readonly snapshotErrors: string[] = [];
  /** Snapshots applied. */
  snapshots = 0;
  /** True once the server ended the session (`session.ended` or an 'unauthorized' refusal): no retry follows. */
  sessionEnded = false;
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  private snapshotSeq = 0;
  private pendingEvents: Array<() => void> | null = null;
  private retries = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The web's acknowledgement rule, restarted with each connection. */
  private ackNow = boardAckPolicy();

  /**
   * Connects to `url` (`http://127.0.0.1:<port>`) with a staff `token`. `reconnectionDelayMaxMs` caps
   * the reconnection backoff (ms; socket.io's default, which the web keeps, is 5 000).
   */
  constructor(
    readonly url: string,
    private readonly token: string,
    reconnectionDelayMaxMs = 5_000,
  ) {
    this.socket = io(url, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelayMax: reconnectionDelayMaxMs,
      forceNew: true,
    });
    this.socket.on('connect', () => {
      this.ackNow = boardAckPolicy();
      this.connects.push(Date.now());
      this.retries = 0;
      void this.refresh();
    });
    this.socket.on('disconnect', (reason) => {
      this.disconnects.push(reason);
      if (reason === 'io server disconnect') this.scheduleRetry();
    });
    this.socket.on('connect_error', (err) => {
      this.connectErrors.push(`${err.message}${this.socket.active ? '' : ' (refused)'}`);
      if (this.socket.active) return; // socket.io-client retries by itself
      if (err.message === 'unauthorized') this.sessionEnded = true;
      else this.scheduleRetry();
    });
    this.socket.on(EVENTS.sessionEnded, () => (this.sessionEnded = true));
    this.socket.on(EVENTS.boardFrame, (frame) => {
      const { seq, teams } = decodeBoardFrame(frame);
      this.receive(() => teams.forEach((team) => this.upsert(team)));
      const ack = this.ackNow(seq);
      if (ack !== null) this.socket.emit(EVENTS.boardAck, ack);
    });
    this.socket.on(EVENTS.teamRemoved, (payload: TeamRemovedPayload) =>
      this.receive(() => this.teams.delete(payload.id)),
    );
    this.socket.on(EVENTS.boardReset, () => void this.refresh());
  }

  /** Whether the socket is connected now. */
  get connected(): boolean {
    return this.socket.connected;
  }

  /** Whether socket.io will keep trying to (re)connect. */
  get active(): boolean {
    return this.socket.active;
  }

  /** Resolves once connected, or rejects after `timeoutMs` (ms). */
  async waitConnected(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.socket.connected || this.snapshots === 0) {
      if (Date.now() > deadline) {
        throw new Error(
          `the board on ${this.url} did not connect in ${timeoutMs} ms: ${this.connectErrors.join('; ')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Closes the socket for good. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket.close();
  }

  /** Connects the inactive socket again after the backoff, unless the session ended or it was closed. */
  private scheduleRetry(): void {
    if (this.retryTimer || this.closed || this.sessionEnded) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed || this.sessionEnded || this.socket.active) return;
      this.retries += 1;
      this.socket.connect();
    }, retryDelayMs(this.retries));
  }

  private upsert(team: BoardTeam): void {
    const held = this.teams.get(team.id);
    if (held && team.version < held.version) return;
    this.teams.set(team.id, team);
  }

  private receive(apply: () => void): void {
    this.pendingEvents?.push(apply);
    apply();
  }

  /** Replaces the board with a snapshot, then replays the events received meanwhile. */
  private async refresh(): Promise<void> {
    const seq = ++this.snapshotSeq;
    this.pendingEvents ??= [];
    try {
      const res = await fetch(`${this.url}/api/teamAttempts`, {
        headers: { authorization: `Bearer ${this.token}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const snapshot = (await res.json()) as TeamAttempts;
      if (seq !== this.snapshotSeq) return;
      const replay = this.pendingEvents ?? [];
      this.pendingEvents = null;
      this.teams.clear();
      for (const key of BOARD_LEVEL_KEYS) for (const row of snapshot[key]) this.teams.set(row.id, row);
      replay.forEach((apply) => apply());
      this.snapshots += 1;
    } catch (err) {
      if (seq !== this.snapshotSeq) return;
      this.pendingEvents = null;
      this.snapshotErrors.push((err as Error).message);
    }
  }
}
