import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  MESSAGE_MAX_LENGTH,
  SOCKET_PATH,
  agentConfigSchema,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentMessage,
  type AgentServerToClientEvents,
} from '@concurso/shared';
import type { MessageShowing } from './message-screen.js';

/** What the running agent does with the push channel's news. */
export interface PolicySocketHandlers {
  /** A policy arrived (checked against `agentConfigSchema`): apply it. */
  apply(config: AgentConfig): void;
  /** A message of the judges arrived (issue 24): show it; what became of it is told back. */
  message?(message: AgentMessage): MessageShowing;
}

/** Message ids remembered as shown, so one sent again after a reconnect is not shown twice. */
const SHOWN_MEMORY = 1_000;

/**
 * The agent's end of the push channel (issue 24, DESIGN.md section 6a): a Socket.IO connection to the
 * server's `/agent` namespace with the team's key. Each `agent.policy` is checked, handed to `apply`
 * and acknowledged with its `policy_version`. It reconnects by itself (socket.io-client's backoff)
 * after a dropped connection or a server restart; a key the server refuses leaves it closed (the HTTP
 * calls, which go on, say why). While it is down the agent reads its config over HTTP as before.
 */
export class PolicySocket {
  private readonly socket: Socket<AgentServerToClientEvents, AgentClientToServerEvents>;

  /**
   * @param server the server's base URL (`normaliseServerUrl`).
   * @param key the team's agent key.
   */
  constructor(server: string, key: string, handlers: PolicySocketHandlers) {
    this.socket = io(`${server}${AGENT_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { key },
      // Long polling first, then WebSocket: a lab proxy that drops WebSocket still carries it.
      reconnectionDelayMax: 10_000,
    });
    this.socket.on('agent.policy', (raw) => {
      const parsed = agentConfigSchema.safeParse(raw);
      if (!parsed.success) return;
      handlers.apply(parsed.data);
      this.socket.emit('agent.policy.applied', parsed.data.policy_version);
    });
    const shownIds = new Set<number>();
    this.socket.on('agent.message', (message) => {
      if (!handlers.message || !isMessage(message) || shownIds.has(message.id)) return;
      if (shownIds.size >= SHOWN_MEMORY) shownIds.clear();
      shownIds.add(message.id);
      const showing = handlers.message(message);
      void showing.shown.then((shown) => {
        if (shown) this.socket.emit('agent.message.delivered', message.id);
        else shownIds.delete(message.id);
      });
      void showing.closed.then((seen) => {
        if (seen) this.socket.emit('agent.message.seen', message.id);
      });
    });
  }

  /** Whether the push channel is up now. */
  get connected(): boolean {
    return this.socket.connected;
  }

  /** Closes the connection for good. */
  close(): void {
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
