import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  MESSAGE_FAILURE_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  MESSAGE_SHOW_RETRY_MS,
  SOCKET_PATH,
  agentConfigSchema,
  withoutUnprintable,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentMessage,
  type AgentServerToClientEvents,
  type CaptureRequest,
} from '@concurso/shared';
import type { MessageShowing } from './message-screen.js';

/** What the running agent does with the push channel's news. */
export interface PolicySocketHandlers {
  /** A policy arrived (checked against `agentConfigSchema`): apply it. */
  apply(config: AgentConfig): void;
  /** A message of the judges arrived: show it; what became of it is told back. */
  message?(message: AgentMessage): MessageShowing;
  /**
   * A message could not be shown (`reason`, already told to the server): it is tried again in
   * `retryMs` (ms), or never (null: no retry left, or it expires first).
   */
  notShown?(message: AgentMessage, reason: string, retryMs: number | null): void;
  /**
   * A judge asked for this machine's screen («Ver pantalla», `agent.capture.request`; a request naming
   * another machine's host name is not handed over): capture it now and upload it (capture.ts).
   */
  captureRequested?(requestId: string): void;
}

/** Message ids remembered as shown, so one sent again after a reconnect is not shown twice. */
const SHOWN_MEMORY = 1_000;

/**
 * The agent's end of the push channel (docs/design.md section 6a): a Socket.IO connection to the
 * server's `/agent` namespace with the team's key. Each `agent.policy` is checked, handed to `apply`
 * and acknowledged with its `policy_version`. It reconnects by itself (socket.io-client's backoff)
 * after a dropped connection or a server restart; a key the server refuses leaves it closed (the HTTP
 * calls, which go on, say why). While it is down the agent reads its config over HTTP as before.
 * Judges' messages (`agent.message`) are shown once each; what could not be shown is reported
 * (`agent.message.failed`) and tried again (`MESSAGE_SHOW_RETRY_MS`).
 */
export class PolicySocket {
  private readonly socket: Socket<AgentServerToClientEvents, AgentClientToServerEvents>;
  /** Ids of messages shown (or being shown), so one sent again is not shown twice. */
  private readonly shownIds = new Set<number>();
  /** Messages that could not be shown: how many retries so far and the one waiting. */
  private readonly retries = new Map<number, { count: number; timer: NodeJS.Timeout | null }>();
  private closed = false;

  /**
   * @param server the server's base URL (`normaliseServerUrl`).
   * @param key the team's agent key.
   * @param lookup finds the server's addresses for each new connection (`dns.lookup`'s shape: the network
   *   guard's `serverLookup`, which keeps to the addresses the policy in force lets through); default the
   *   system's.
   */
  constructor(server: string, key: string, handlers: PolicySocketHandlers, lookup?: LookupFunction) {
    // Both transports (long polling and WebSocket) connect through `agent`, and an agent's options reach
    // each connection it opens (engine.io-client's `agent` option; typed as a string there, for browsers).
    const agent = lookup
      ? new URL(server).protocol === 'https:'
        ? new HttpsAgent({ lookup })
        : new HttpAgent({ lookup })
      : undefined;
    this.socket = io(`${server}${AGENT_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { key },
      ...(agent ? { agent: agent as unknown as string } : {}),
      // Long polling first, then WebSocket: a lab proxy that drops WebSocket still carries it.
      reconnectionDelayMax: 10_000,
    });
    this.socket.on('agent.policy', (raw) => {
      const parsed = agentConfigSchema.safeParse(raw);
      if (!parsed.success) return;
      handlers.apply(parsed.data);
      this.socket.emit('agent.policy.applied', parsed.data.policy_version);
    });
    this.socket.on('agent.message', (message) => {
      if (!handlers.message || !isMessage(message) || this.shownIds.has(message.id)) return;
      // Sent again (a reconnection) while a retry waits: shown now instead.
      const waiting = this.retries.get(message.id);
      if (waiting?.timer) clearTimeout(waiting.timer);
      if (waiting) waiting.timer = null;
      this.show(message, handlers);
    });
    this.socket.on('agent.capture.request', (request) => {
      const id = (request as Partial<CaptureRequest> | null)?.request_id;
      if (typeof id !== 'string' || id.length === 0 || id.length > 64) return;
      if (request.hostname !== undefined && request.hostname !== withoutUnprintable(hostname()).slice(0, 255))
        return;
      handlers.captureRequested?.(id);
    });
  }

  /**
   * Shows `message` and tells the server what became of it: `entregado`, `visto`, or `falló` with
   * why; a failure is tried again after `MESSAGE_SHOW_RETRY_MS` (at most that many times, never once
   * the message expired), also when the server sends it again on a reconnection.
   */
  private show(message: AgentMessage, handlers: PolicySocketHandlers): void {
    if (this.shownIds.size >= SHOWN_MEMORY) this.shownIds.clear();
    this.shownIds.add(message.id);
    const showing = handlers.message!(message);
    void showing.shown.then((outcome) => {
      if (outcome.shown) {
        this.retries.delete(message.id);
        this.socket.emit('agent.message.delivered', message.id);
        return;
      }
      this.shownIds.delete(message.id);
      this.socket.emit('agent.message.failed', {
        id: message.id,
        reason: outcome.reason.slice(0, MESSAGE_FAILURE_MAX_LENGTH),
        hostname: hostname().slice(0, 255),
      });
      const state = this.retries.get(message.id) ?? { count: 0, timer: null };
      const delay = MESSAGE_SHOW_RETRY_MS[state.count];
      const worth =
        delay !== undefined && !this.closed && Date.parse(message.expires_at) - Date.now() > delay;
      handlers.notShown?.(message, outcome.reason, worth ? delay : null);
      if (!worth) {
        this.retries.delete(message.id);
        return;
      }
      state.count += 1;
      state.timer = setTimeout(() => {
        state.timer = null;
        if (!this.closed && !this.shownIds.has(message.id)) this.show(message, handlers);
      }, delay);
      this.retries.set(message.id, state);
    });
    void showing.closed.then((seen) => {
      if (seen) this.socket.emit('agent.message.seen', message.id);
    });
  }

  /** Whether the push channel is up now. */
  get connected(): boolean {
    return this.socket.connected;
  }

  /** Closes the connection for good (and drops the retries waiting). */
  close(): void {
    this.closed = true;
    for (const { timer } of this.retries.values()) if (timer) clearTimeout(timer);
    this.retries.clear();
    this.socket.close();
  }
}

/** Whether a pushed payload is a message to show (the server's, but checked like any input). */
function isMessage(value: unknown): value is AgentMessage {
  const m = value as Partial<AgentMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    Number.isSafeInteger(m.id) &&
    typeof m.text === 'string' &&
    m.text.length <= MESSAGE_MAX_LENGTH &&
    typeof m.expires_at === 'string' &&
    Date.parse(m.expires_at) > Date.now()
  );
}
