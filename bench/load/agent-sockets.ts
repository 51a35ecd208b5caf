/**
 * One push-channel socket per simulated agent (the `/agent` namespace), as the real agent opens
 * it (agent/src/policy-socket.ts: socket.io-client with its key, WebSocket only): each `agent.policy` is
 * acknowledged with `agent.policy.applied`. The load tester holds them through the whole run,
 * so the server's push figures are taken with its 500 agents connected as in a lab; `config_push_ms`
 * times the blocked set's push on them.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  SOCKET_PATH,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentServerToClientEvents,
} from '@concurso/shared';

type AgentSocket = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;

/** Sockets opened at once while connecting (a lab's agents start over minutes, not in one instant). */
const CONNECT_BATCH = 50;

/** The agents' sockets, connected, each with its first policy received. */
export class AgentSockets {
  /** Policies received on every socket (the first of each included). */
  policies = 0;
  /** Sockets the server closed or that dropped during the run. */
  disconnects = 0;
  private readonly sockets: AgentSocket[] = [];
  private readonly listeners = new Set<(index: number, policy: AgentConfig, at: number) => void>();

  private constructor() {}

  /**
   * Opens one socket per agent (`agents[i]`'s key on its server), `CONNECT_BATCH` at a time, and waits
   * for each one's first policy.
   * @throws when a socket is refused (a wrong key: the seed is broken).
   */
  static async open(agents: ReadonlyArray<{ key: string; url: string }>): Promise<AgentSockets> {
    const fleet = new AgentSockets();
    try {
      for (let start = 0; start < agents.length; start += CONNECT_BATCH) {
        await Promise.all(
          agents.slice(start, start + CONNECT_BATCH).map((agent, k) => fleet.connect(start + k, agent)),
        );
      }
    } catch (err) {
      fleet.close();
      throw err;
    }
    return fleet;
  }

  /** How many sockets are open. */
  get connected(): number {
    return this.sockets.filter((socket) => socket.connected).length;
  }

  /** Calls `listener(index, policy, at)` for every policy from now on (`at`: performance.now()). */
  onPolicy(listener: (index: number, policy: AgentConfig, at: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const socket of this.sockets) socket.close();
  }

  private connect(index: number, agent: { key: string; url: string }): Promise<void> {
    const socket: AgentSocket = io(`${agent.url}${AGENT_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { key: agent.key },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.sockets.push(socket);
    socket.on('agent.policy', (policy: AgentConfig) => {
      const at = performance.now();
      this.policies += 1;
      for (const listener of this.listeners) listener(index, policy, at);
      socket.emit('agent.policy.applied', policy.policy_version);
    });
    socket.on('disconnect', () => {
      this.disconnects += 1;
    });
    return new Promise<void>((resolve, reject) => {
      socket.once('agent.policy', () => resolve());
      socket.once('connect_error', reject);
    });
  }
}
