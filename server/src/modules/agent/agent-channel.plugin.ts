import fp from 'fastify-plugin';
import type { Namespace, Socket } from 'socket.io';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  AGENT_CHANNEL_LIMITS,
  AGENT_NAMESPACE,
  LAB_MAX_MACHINES_PER_TEAM,
  agentMessageFailureSchema,
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
import { HttpError } from '../../lib/http-error.js';
import { agentConfigs, type PolicyOptions } from './agent-config.js';

/**
 * How long a policy change waits for more before the agents are told (ms): a burst of changes (a
 * copied blocked set, an import, several fingerprints confirmed) becomes one round.
 */
const AGENT_POLICY_DEBOUNCE_MS = 25;

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
interface AgentSocketData {
  /** The team of the key it connected with (its contest follows the team's moves). */
  team: AgentPrincipal;
  /** `policy_version` last sent to it; null before the first. */
  sent: string | null;
  /** `policy_version` it said it applied; null before it said so. */
  applied: string | null;
  /**
   * Messages sent to this socket that it may still acknowledge, by id: `sent` (may say `entregado` or
   * `visto`) or `entregado` (may say `visto`). A receipt of anything else costs nothing. At most
   * `AGENT_CHANNEL_LIMITS.openMessagesPerSocket` (the oldest are forgotten).
   */
  open: Map<number, 'sent' | 'entregado'>;
  /** Events it sent in the current window, and when that window began (ms). */
  events: { count: number; since: number };
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

/** The agents' side of the push channel, as `app.agentChannel`. */
interface AgentChannel {
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
  /** Sends `message` (`agent.message`) to the agents of `teamIds`, in every process. */
  sendMessage(teamIds: readonly number[], message: AgentMessage): void;
  /**
   * How agents' messages are kept (the messages module registers it): `pending` answers what a
   * connecting agent of a team has not shown yet, `receipt` records its `entregado` / `visto`.
   */
  useMessages(handlers: MessageHandlers): void;
}

/** The messages module's side of the agents' channel. */
interface MessageHandlers {
  /**
   * The messages of team `teamId` not closed yet: `show`, those none of its agents has shown; `shown`,
   * the ids of those shown but not closed.
   */
  pending(teamId: number): Promise<{ show: AgentMessage[]; shown: number[] }>;
  /**
   * Records a receipt the channel checked (the message was sent to that socket and not receipted
   * yet by it); the messages module writes them in batches. Never throws.
   */
  receipt(teamId: number, messageId: number, kind: 'entregado' | 'visto'): void;
  /**
   * Records that a machine (`hostname`, null when unknown) of team `teamId` could not show message
   * `messageId` (`falló`, the agent's short Spanish `reason`), checked like `receipt` (the message was
   * sent to that socket and it has not said `entregado` of it). Never throws.
   */
  failed(teamId: number, messageId: number, reason: string, hostname: string | null): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The agents' push channel (agent-channel.plugin.ts). */
    agentChannel: AgentChannel;
  }
}

/**
 * The agents on the push channel (docs/design.md section 6a): namespace `/agent` of the Socket.IO
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

    // Handshakes per team in this process: each one costs a policy round and a pending-messages read.
    const handshakes = new RateLimiterMemory({
      keyPrefix: 'agent-handshake',
      points: AGENT_CHANNEL_LIMITS.handshakesPerMinute,
      duration: 60,
    });
    /** Sockets waiting for their first policy: one round takes all that arrived meanwhile. */
    const arrived = new Set<AgentSocket>();
    let arrivalRound = false;

    nsp.use(async (socket, next) => {
      const auth = agentSocketAuthSchema.safeParse(socket.handshake.auth);
      const address = socket.handshake.address;
      let team: AgentPrincipal | null;
      try {
        team = await app.agentKeys.team(auth.success ? auth.data.key : '', address);
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 429) return next(new Error('rate_limited'));
        app.log.error({ err }, 'agent socket auth failed');
        return next(new Error('unavailable'));
      }
      if (!team) return next(new Error('unauthorized'));
      try {
        await handshakes.consume(team.id);
      } catch {
        return next(new Error('rate_limited'));
      }
      socket.data = {
        team,
        sent: null,
        applied: null,
        open: new Map(),
        events: { count: 0, since: Date.now() },
      };
      await socket.join([teamRoom(team.id), contestRoom(team.contests_id)]);
      next();
    });

    nsp.on('connection', (socket) => {
      closeOldest(socket.data.team.id);
      socket.on('agent.policy.applied', (version) => {
        if (!withinRate(socket)) return;
        if (typeof version === 'string' && version.length <= 64) socket.data.applied = version;
      });
      // What this socket may acknowledge: its team's messages not closed yet, read once on connection.
      const pendingRead = messages
        ? messages
            .pending(socket.data.team.id)
            .then(({ show, shown }) => {
              // Shown before this socket (another machine, or before a reconnection): it may still say `visto`.
              for (const id of shown) if (!socket.data.open.has(id)) remember(socket, id, 'entregado');
              show.forEach((message) => emitMessage(socket, message));
            })
            .catch((err: unknown) => app.log.warn({ err }, 'pending messages not sent'))
        : Promise.resolve();
      // Messages shown and closed on the machine: only for what was sent to this socket, once each. A
      // receipt sent at once on reconnection waits for that read (at most the rate's few events).
      const receipt = (kind: 'entregado' | 'visto') => (id: unknown) => {
        if (!withinRate(socket) || !Number.isSafeInteger(id)) return;
        void pendingRead.then(() => {
          const state = socket.data.open.get(id as number);
          if (!messages || state === undefined || (kind === 'entregado' && state === 'entregado')) return;
          if (kind === 'visto') socket.data.open.delete(id as number);
          else socket.data.open.set(id as number, 'entregado');
          messages.receipt(socket.data.team.id, id as number, kind);
        });
      };
      socket.on('agent.message.delivered', receipt('entregado'));
      socket.on('agent.message.seen', receipt('visto'));
      // Could not show it: counted like any event, taken only for a message sent to this socket and
      // not shown by it; the message stays open (its agent tries again and may still say `entregado`).
      socket.on('agent.message.failed', (raw: unknown) => {
        if (!withinRate(socket)) return;
        const report = agentMessageFailureSchema.safeParse(raw);
        if (!report.success) return;
        const { id, reason, hostname } = report.data;
        void pendingRead.then(() => {
          if (!messages || socket.data.open.get(id) !== 'sent') return;
          messages.failed(socket.data.team.id, id, reason, hostname || null);
        });
      });
      arrived.add(socket);
      if (!arrivalRound) {
        arrivalRound = true;
        rounds = rounds.then(() => {
          arrivalRound = false;
          const batch = [...arrived];
          arrived.clear();
          return sendPolicies(batch);
        });
      }
    });

    /**
     * Counts one event of `socket`; past `AGENT_CHANNEL_LIMITS.eventsPerWindow` in a window it is
     * disconnected (its agent reconnects and falls back to HTTP meanwhile) and answers false.
     */
    function withinRate(socket: AgentSocket): boolean {
      if (!socket.connected) return false;
      const now = Date.now();
      const events = socket.data.events;
      if (now - events.since >= AGENT_CHANNEL_LIMITS.eventWindowMs) {
        events.since = now;
        events.count = 0;
      }
      if (++events.count <= AGENT_CHANNEL_LIMITS.eventsPerWindow) return true;
      app.log.warn(
        { team: socket.data.team.id, address: socket.handshake.address },
        `agent socket closed: more than ${AGENT_CHANNEL_LIMITS.eventsPerWindow} events in ${AGENT_CHANNEL_LIMITS.eventWindowMs} ms`,
      );
      socket.disconnect(true);
      return false;
    }

    /**
     * Keeps at most `LAB_MAX_MACHINES_PER_TEAM` agent sockets of team `teamId` in this process: the
     * oldest go (a machine that rebooted leaves a half-open one behind; a stolen key's extra sockets
     * only push out its own team's).
     */
    function closeOldest(teamId: number): void {
      const ids = nsp.adapter.rooms.get(teamRoom(teamId));
      if (!ids || ids.size <= LAB_MAX_MACHINES_PER_TEAM) return;
      const extra = [...ids].slice(0, ids.size - LAB_MAX_MACHINES_PER_TEAM);
      for (const id of extra) nsp.sockets.get(id)?.disconnect(true);
      app.log.warn(
        { team: teamId, closed: extra.length },
        `agent sockets of one team past ${LAB_MAX_MACHINES_PER_TEAM}: the oldest closed`,
      );
    }

    /** Lets `socket` acknowledge message `id` from `state` on (the oldest is forgotten past the bound). */
    function remember(socket: AgentSocket, id: number, state: 'sent' | 'entregado'): void {
      const open = socket.data.open;
      open.set(id, state);
      if (open.size > AGENT_CHANNEL_LIMITS.openMessagesPerSocket) open.delete(open.keys().next().value!);
    }

    /** Sends `message` to `socket` and lets it acknowledge it. */
    function emitMessage(socket: AgentSocket, message: AgentMessage): void {
      if (socket.data.open.get(message.id) !== 'entregado') remember(socket, message.id, 'sent');
      socket.emit('agent.message', message);
    }

    /** Sends `message` to the agent sockets of `teamIds` in this process. */
    function deliverMessage(teamIds: readonly number[], message: AgentMessage): void {
      for (const teamId of teamIds) {
        for (const id of nsp.adapter.rooms.get(teamRoom(teamId)) ?? []) {
          const socket = nsp.sockets.get(id);
          if (socket) emitMessage(socket, message);
        }
      }
    }

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
    if (app.redis) {
      app.io.on('agentPolicy.changed', schedule);
      app.io.on('agentMessage.send', deliverMessage);
    }
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
      sockets: () =>
        [...nsp.sockets.values()].map(({ data: { team, sent, applied } }) => ({ team, sent, applied })),
      sendMessage(teamIds, message) {
        if (teamIds.length === 0) return;
        // Each process sends to its own sockets, so each knows which receipts it may take.
        deliverMessage(teamIds, message);
        if (app.redis) app.io.serverSideEmit('agentMessage.send', [...teamIds], message);
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
