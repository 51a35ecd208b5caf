import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  SOCKET_PATH,
  agentConfigSchema,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentServerToClientEvents,
} from '@concurso/shared';

/** What the running agent does with the push channel's news. */
export interface PolicySocketHandlers {
  /** A policy arrived (checked against `agentConfigSchema`): apply it. */
  apply(config: AgentConfig): void;
}

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
