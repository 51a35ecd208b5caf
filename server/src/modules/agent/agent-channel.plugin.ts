import fp from 'fastify-plugin';
import type { Namespace, Socket } from 'socket.io';
import {
  AGENT_NAMESPACE,
  agentSocketAuthSchema,
  contestRoom,
  teamRoom,
  type AgentClientToServerEvents,
  type AgentConfig,
  type AgentMessage,
  type AgentServerToClientEvents,
  type CatalogName,
} from '@concurso/shared';
import type { AgentPrincipal } from '../../plugins/access.js';
import type { InterServerEvents } from '../../realtime/socket.js';
import { agentConfigs, type PolicyOptions } from './agent-config.js';

/**
 * How long a policy change waits for more before the agents are told (ms): a burst of changes (a
 * copied blocked set, an import, several fingerprints confirmed) becomes one round.
 */
export const AGENT_POLICY_DEBOUNCE_MS = 25;

/** Teams whose policies one read of a round computes together. */
const ROUND_TEAMS = 500;

/** Catalogues whose change may change an agent's policy: the active contest, its blocked set, a team's contest. */
const POLICY_CATALOGS: ReadonlySet<CatalogName> = new Set([
  'contests',
  'contest_processes',
  'processes',
  'teams',
]);

/** What each agent socket of this process carries. */
export interface AgentSocketData {
  /** The team of the key it connected with (its contest follows the team's moves). */
  team: AgentPrincipal;
  /** `policy_version` last sent to it; null before the first. */
  sent: string | null;
  /** `policy_version` it said it applied; null before it said so. */
  applied: string | null;
}

type AgentNamespace = Namespace<
  AgentClientToServerEvents,
  AgentServerToClientEvents,
  InterServerEvents,
  AgentSocketData
>;
type AgentSocket = Socket<
  AgentClientToServerEvents,
  AgentServerToClientEvents,
  InterServerEvents,
  AgentSocketData
>;

/** The agents' side of the push channel, as `app.agentChannel` (issue 24). */
export interface AgentChannel {
  /**
   * An agent's policy may have changed (active contest, blocked set, fingerprints, a team's contest):
   * after `AGENT_POLICY_DEBOUNCE_MS`, every connected agent in every server process whose policy
   * differs from the one it was last sent gets `agent.policy`. Call it after the change committed.
   */
  policyChanged(): void;
  /** Closes the agent sockets of team `teamId` in every process (its key was regenerated). */
  closeTeam(teamId: number): void;
  /** Resolves once the rounds scheduled so far in this process have sent their policies (tests). */
  settled(): Promise<void>;
  /** The agent sockets of this process, by team (the lab board, tests). */
  sockets(): ReadonlyArray<{ team: AgentPrincipal; sent: string | null; applied: string | null }>;
  /** Sends `message` (`agent.message`) to the agents of `teamIds`, in every process (issue 24). */
  sendMessage(teamIds: readonly number[], message: AgentMessage): void;
  /**
   * How agents' messages are kept (the messages module registers it): `pending` answers what a
   * connecting agent of a team has not shown yet, `receipt` records its `entregado` / `visto`.
   */
  useMessages(handlers: MessageHandlers): void;
}

/** The messages module's side of the agents' channel (issue 24). */
export interface MessageHandlers {
  pending(teamId: number): Promise<AgentMessage[]>;
  receipt(teamId: number, messageId: number, kind: 'entregado' | 'visto'): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The agents' push channel (agent-channel.plugin.ts). */
    agentChannel: AgentChannel;
  }
}

/**
 * The agents on the push channel (issue 24, DESIGN.md section 6a): namespace `/agent` of the Socket.IO
 * server, whose handshake takes an agent key (`agentSocketAuthSchema`; wrong, revoked or regenerated:
 * `unauthorized`; a staff token is not a key). A socket joins `team:<id>` and `contest:<id>` and gets
 * its team's policy (`agent-config.ts`) at once and again whenever it changes; staff sockets live in
 * the default namespace, so neither side ever receives the other's events. `PolicyOptions`: as for
 * `GET /api/agent/config`. With Redis, a change in one process reaches the agents of all.
 */
export default fp<PolicyOptions>(
  async (app, policy) => {
    // Socket.IO types every namespace with the server's event maps; this one has the agents' own.
    const nsp = app.io.of(AGENT_NAMESPACE) as unknown as AgentNamespace;
    /** The rounds of this process, one after another; a pending `schedule()`'s timer. */
    let rounds: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout | null = null;
    let messages: MessageHandlers | null = null;

    nsp.use(async (socket, next) => {
      const auth = agentSocketAuthSchema.safeParse(socket.handshake.auth);
      if (!auth.success) return next(new Error('unauthorized'));
      let team: AgentPrincipal | null;
      try {
        team = await app.agentKeys.team(auth.data.key);
      } catch (err) {
        app.log.error({ err }, 'agent socket auth failed');
        return next(new Error('unavailable'));
      }
      if (!team) return next(new Error('unauthorized'));
      socket.data = { team, sent: null, applied: null };
      await socket.join([teamRoom(team.id), contestRoom(team.contests_id)]);
      next();
    });

    nsp.on('connection', (socket) => {
      socket.on('agent.policy.applied', (version) => {
        if (typeof version === 'string' && version.length <= 64) socket.data.applied = version;
      });
      // Issue 24: messages shown and closed on the machine; what it missed while offline.
      const receipt = (kind: 'entregado' | 'visto') => (id: unknown) => {
        if (!messages || !Number.isSafeInteger(id) || (id as number) < 1) return;
        messages
          .receipt(socket.data.team.id, id as number, kind)
          .catch((err: unknown) => app.log.warn({ err }, 'message receipt not recorded'));
      };
      socket.on('agent.message.delivered', receipt('entregado'));
      socket.on('agent.message.seen', receipt('visto'));
      rounds = rounds.then(() => sendPolicies([socket]));
      if (messages) {
        messages
          .pending(socket.data.team.id)
          .then((pending) => pending.forEach((message) => socket.emit('agent.message', message)))
          .catch((err: unknown) => app.log.warn({ err }, 'pending messages not sent'));
      }
    });

    /**
     * Sends each socket its team's policy when it is not the one it was last sent: the policies of a
     * round's teams are read together (`agentConfigs`, a few queries per `ROUND_TEAMS` teams).
     */
    async function sendPolicies(sockets: AgentSocket[]): Promise<void> {
      const byTeam = new Map<number, AgentSocket[]>();
      for (const socket of sockets) {
        if (!socket.connected) continue;
        const list = byTeam.get(socket.data.team.id) ?? [];
        list.push(socket);
        byTeam.set(socket.data.team.id, list);
      }
      const teamIds = [...byTeam.keys()];
      for (let start = 0; start < teamIds.length; start += ROUND_TEAMS) {
        const chunk = teamIds.slice(start, start + ROUND_TEAMS);
        let configs: Map<number, AgentConfig>;
        try {
          configs = await agentConfigs(app.orm.em.fork(), chunk, policy);
        } catch (err) {
          app.log.warn({ err }, 'agent policies not sent');
          continue;
        }
        for (const teamId of chunk) {
          const config = configs.get(teamId);
          // A team deleted meanwhile: its agents have nothing to enforce here any more.
          if (!config) byTeam.get(teamId)!.forEach((socket) => socket.disconnect(true));
          else byTeam.get(teamId)!.forEach((socket) => send(socket, config));
        }
      }
    }

    function send(socket: AgentSocket, config: AgentConfig): void {
      const { team } = socket.data;
      if (team.contests_id !== config.contest.id) {
        // The team moved to another contest: its room follows.
        void socket.leave(contestRoom(team.contests_id));
        void socket.join(contestRoom(config.contest.id));
        socket.data.team = { ...team, contests_id: config.contest.id, levels_id: config.team.levels_id };
      }
      if (socket.data.sent === config.policy_version) return;
      socket.data.sent = config.policy_version;
      socket.emit('agent.policy', config);
    }

    const schedule = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        rounds = rounds.then(() => sendPolicies([...nsp.sockets.values()]));
      }, AGENT_POLICY_DEBOUNCE_MS);
    };
    if (app.redis) app.io.on('agentPolicy.changed', schedule);
    app.board.onCatalogChanged((catalog) => {
      if (POLICY_CATALOGS.has(catalog)) channel.policyChanged();
    });

    const channel: AgentChannel = {
      policyChanged() {
        schedule();
        if (app.redis) app.io.serverSideEmit('agentPolicy.changed');
      },
      closeTeam(teamId) {
        nsp.in(teamRoom(teamId)).disconnectSockets(true);
      },
      async settled() {
        while (timer) await new Promise((resolve) => setTimeout(resolve, AGENT_POLICY_DEBOUNCE_MS));
        await rounds;
      },
      sockets: () => [...nsp.sockets.values()].map(({ data }) => ({ ...data })),
      sendMessage(teamIds, message) {
        if (teamIds.length > 0) nsp.to(teamIds.map(teamRoom)).emit('agent.message', message);
      },
      useMessages(handlers) {
        messages = handlers;
      },
    };
    app.decorate('agentChannel', channel);
    app.addHook('preClose', () => {
      if (timer) clearTimeout(timer);
      timer = null;
    });
  },
  { name: 'agent-channel', dependencies: ['socket', 'agent-keys', 'board', 'orm'] },
);
