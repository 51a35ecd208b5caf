import type { EntityManager } from '@mikro-orm/mysql';
import {
  LAB_MACHINE_LIMITS,
  LAB_MAX_MACHINES_PER_TEAM,
  agentAlertOf,
  isAgentAlarm,
  type AgentAlert,
  type AgentEventKind,
  type BoardTeam,
} from '@concurso/shared';
import type mysql from 'mysql2/promise';
import { retryTransaction, transaction } from '../../db/transaction.js';
import { sqlStatements } from '../../db/sql.js';
import { activeContest } from '../contests/index.js';
import {
  boardRows,
  lockAgentPresence,
  lockAgentTeams,
  lockSilentAgents,
  lockStoppedAgents,
  markAgentSeen,
  markAgentsOffline,
  setAgentPresence,
  touchOnlineAgentStatement,
  type AgentPresence,
} from '../teams/index.js';
import {
  addMachine,
  deleteExpiredMachines,
  deleteMachine,
  machinePresences,
  machineTeam,
  markMachineNotResumed,
  markMachineSilent,
  teamsWithMachineChanges,
  updateMachinePresence,
  updateMachineStatement,
  type MachineCaps,
  type MachinePresence,
  type MachineReport,
} from './agent-machines.repository.js';
import { recordAgentEvent } from './agent-events.repository.js';
import { heartbeatMsFor } from './agent-config.js';

/*
 * Presence per machine (docs/design.md section 6a; the module README says the rules). Every machine of a
 * team (`agent_machines`: team + host name) has its own presence: `alert` (`sin_senal` silent during
 * the active contest, `detenido` its agent said it stops, `sin_reanudar` stopped during the active
 * contest and not back after `offlineAfterMs`; null while it beats) and `logged`, the last state given
 * to the log and the boards. The team's board row follows its machines: online while one beats, an
 * alarm (`sin_senal`, else `sin_reanudar`) while one of them holds it even if another beats,
 * `detenido` when none beats and one was stopped. A change that comes less than `quietMs` after the
 * machine's previous one (a machine flapping between stopping and beating) is coalesced: the machine's
 * row follows it, and the sweep gives the log and the boards the last state once it has held `quietMs`. Teams whose agent never
 * named its machine keep the team-level presence (`agent_online`, `agent_last_seen`).
 */

/** What the presence rules need to know (the server's configuration). */
export interface PresenceOptions {
  /** `AGENT_OFFLINE_AFTER_MS`. */
  offlineAfterMs: number;
  /** Changes of one machine closer than this (ms) are coalesced. */
  quietMs: number;
  /** `LAB_MAX_MACHINES_PER_TEAM` heard within the window, `LAB_MACHINE_LIMITS.maxRowsPerTeam` rows. */
  maxPerTeam: number;
  maxRowsPerTeam: number;
}

/**
 * The presence period for `offlineAfterMs` (ms): the agents' heartbeat period (`heartbeatMsFor`) in
 * whole seconds, at least 1 s; the rate limits of `AGENT_PRESENCE_LIMITS` count per period.
 */
export function presencePeriodMs(offlineAfterMs: number): number {
  return Math.max(1, Math.round(heartbeatMsFor(offlineAfterMs) / 1000)) * 1000;
}

/**
 * The presence rules for `offlineAfterMs` (`AGENT_OFFLINE_AFTER_MS`): changes of one machine closer
 * than `LAB_MACHINE_LIMITS.quietPeriods` presence periods are coalesced; machine rows silent for
 * `expireWindows` windows are deleted by the sweep (`LAB_MACHINE_LIMITS`).
 */
export function presenceOptions(offlineAfterMs: number): PresenceOptions & { expireAfterMs: number } {
  return {
    offlineAfterMs,
    quietMs: presencePeriodMs(offlineAfterMs) * LAB_MACHINE_LIMITS.quietPeriods,
    maxPerTeam: LAB_MAX_MACHINES_PER_TEAM,
    maxRowsPerTeam: LAB_MACHINE_LIMITS.maxRowsPerTeam,
    expireAfterMs: offlineAfterMs * LAB_MACHINE_LIMITS.expireWindows,
  };
}

/** The state a machine's presence stands for in the log: its alert, or `en_linea`. */
const stateOf = (alert: string | null): AgentEventKind =>
  alert === 'sin_senal' || alert === 'detenido' || alert === 'sin_reanudar' ? alert : 'en_linea';

/** Whether a stored alert is a documented stop (`detenido`, or escalated to `sin_reanudar`). */
const isStop = (alert: string | null): boolean => alert === 'detenido' || alert === 'sin_reanudar';

/** Whether a change at `now` after the previous one at `before` stands alone (not a flap). */
const standsAlone = (before: Date | null, now: Date, quietMs: number): boolean =>
  before === null || now.getTime() - before.getTime() >= quietMs;

/**
 * Team `team`'s board presence from its machines' announced states (`logged`): online while one of
 * them beats (announced online and heard within `offlineAfterMs`), `sin_senal` while one of them is
 * announced silent, else `sin_reanudar` while one is stopped and not back past the window (both even
 * with another beating), `detenido` when none beats and one was stopped; only the active contest's
 * teams get an alert. Writes it (bumping `version`) when it differs from what the boards show and
 * answers
 * the row to push; null when nothing changed or the team has no machines (the team-level rules).
 */
async function settleTeam(
  em: EntityManager,
  team: AgentPresence,
  active: boolean,
  now: Date,
  offlineAfterMs: number,
  machines?: readonly MachinePresence[],
): Promise<BoardTeam | null> {
  const mine = machines ?? (await machinePresences(em, [team.teamId]));
  if (mine.length === 0) return null;
  const heardSince = now.getTime() - offlineAfterMs;
  const shown = (m: MachinePresence) => agentAlertOf(m.logged);
  const online = mine.some((m) => shown(m) === null && m.lastSeen.getTime() >= heardSince);
  let alert: AgentAlert | null = null;
  if (active) {
    if (mine.some((m) => shown(m) === 'sin_senal')) alert = 'sin_senal';
    else if (mine.some((m) => shown(m) === 'sin_reanudar')) alert = 'sin_reanudar';
    else if (!online && mine.some((m) => shown(m) === 'detenido')) alert = 'detenido';
  }
  if (online === team.online && alert === agentAlertOf(team.alert)) return null;
  await setAgentPresence(em, team.teamId, online, alert);
  return (await boardRows(em, [team.teamId]))[0] ?? null;
}

/**
 * Logs team `teamId`'s agent (on machine `hostname`, if it names one) back at `now`: `en_linea` after
 * a silence, with how long it was quiet since `lastSeen`, or `reanudado` after a documented stop
 * (`stopped`), with how long since the stop, `lastSeen` then being the stop's time when known (ms;
 * unknown when it was never seen).
 */
async function logBackOnline(
  em: EntityManager,
  contestId: number,
  teamId: number,
  now: Date,
  lastSeen: Date | null,
  hostname?: string,
  stopped = false,
): Promise<void> {
  await recordAgentEvent(em, {
    contestId,
    teamId,
    kind: stopped ? 'reanudado' : 'en_linea',
    at: now,
    lastSeen,
    silenceMs: lastSeen ? Math.max(0, now.getTime() - lastSeen.getTime()) : undefined,
    hostname,
  });
}

/**
 * Records a heartbeat of team `teamId`'s agent (on the agents' bare pool `pool`, no ORM in the
 * usual case): `agent_last_seen` = now and, when it says which machine it beats from (`machine`),
 * that machine's row for the lab board (with the request's source address), both in one round
 * trip, retried on a deadlock like the attempts path (`retryTransaction`). A machine not known yet is
 * added (`addMachine`: at most `maxPerTeam` heard within the window); a machine back after an alert of
 * its own, or a team the boards show offline or alerted, takes the locked transition on `fork()`: the
 * machine's alert clears, the log gets `en_linea` with the silence's length (naming the machine;
 * coalesced when it flaps), and the team's board row follows (`settleTeam`). Answers the row to push,
 * or null when the boards need nothing.
 * @throws the database's error (503 when unavailable, plugins/errors.ts).
 */
export async function recordHeartbeat(
  pool: mysql.Pool,
  fork: () => EntityManager,
  teamId: number,
  options: PresenceOptions,
  report?: MachineReport,
): Promise<BoardTeam | null> {
  // Each statement commits on its own: a deadlock (two beats of one team) rolls back only that one,
  // and running both again at a new instant is harmless.
  const [touched, updated] = await retryTransaction(async () => {
    const at = new Date();
    const statements = [touchOnlineAgentStatement(teamId, at)];
    if (report) statements.push(updateMachineStatement(teamId, report, at, options.offlineAfterMs));
    return (await sqlStatements(pool, statements)) as unknown as Array<{ affectedRows: number }>;
  });
  // The usual case, a known machine without an alert of a team the boards show online, ends here.
  if (touched!.affectedRows > 0 && (!report || updated!.affectedRows > 0)) return null;
  return transaction(fork(), async (tem) => {
    const before = await lockAgentPresence(tem, teamId);
    if (!before) return null;
    const now = new Date();
    const active = (await activeContest(tem))?.id === before.contestId;
    await markAgentSeen(tem, teamId, now, false);
    if (report) {
      const known = await machinePresences(tem, [teamId]);
      const machine = known.find((m) => m.hostname === report.hostname);
      if (!machine) {
        const caps: MachineCaps = {
          maxLive: options.maxPerTeam,
          liveSince: new Date(now.getTime() - options.offlineAfterMs),
          maxRows: options.maxRowsPerTeam,
        };
        const added = await addMachine(tem, teamId, report, now, caps);
        // An agent alerted while it named no machine comes back naming one: its return is logged.
        if (added && known.length === 0 && before.alert && active)
          await logBackOnline(
            tem,
            before.contestId,
            teamId,
            now,
            before.lastSeen,
            report.hostname,
            isStop(before.alert),
          );
      } else if (machine.alert !== null) {
        // Back after an alert of its own: announced at once, unless it flaps between stopping and
        // beating (a silence is a whole window long, so it never flaps).
        // An escalated stop is a whole window long too.
        const alone = isAgentAlarm(machine.alert) || standsAlone(machine.changedAt, now, options.quietMs);
        await updateMachinePresence(tem, machine.id, {
          alert: null,
          changedAt: now,
          report,
          seenAt: now,
          ...(alone ? { logged: 'en_linea' } : {}),
        });
        if (!alone) return null;
        if (active && stateOf(machine.logged) !== 'en_linea') {
          // Back after a stop: how long since the stop (its `changed_at`), not since its last beat.
          const stopped = isStop(machine.alert);
          const since = stopped && machine.changedAt ? machine.changedAt : machine.lastSeen;
          await logBackOnline(tem, before.contestId, teamId, now, since, machine.hostname, stopped);
        }
      } else {
        // The same millisecond as its previous beat, or only its team was behind: what it says.
        await updateMachinePresence(tem, machine.id, { report });
      }
      const settled = await settleTeam(tem, before, active, now, options.offlineAfterMs);
      if (settled || (await machinePresences(tem, [teamId])).length > 0) return settled;
    }
    // Team-level presence (an agent that names no machine, or whose machine the caps refused).
    if (before.online && !before.alert) return null;
    await markAgentSeen(tem, teamId, now, true);
    if (before.alert && active) {
      await logBackOnline(
        tem,
        before.contestId,
        teamId,
        now,
        before.lastSeen,
        undefined,
        isStop(before.alert),
      );
    }
    return (await boardRows(tem, [teamId]))[0] ?? null;
  });
}

/**
 * The silent-agent sweep (docs/design.md section 6a), in one transaction whose team rows are
 * locked (`skip locked`: when several server processes sweep at once each change is announced once):
 * - a machine of the active contest silent for `offlineAfterMs` gets `sin_senal`, logged with its host
 *   name and last heartbeat, and its team's board row shows «Agente sin señal» even while another of
 *   its machines beats;
 * - a machine of the active contest stopped the documented way (`detenido`) and not heard since,
 *   `offlineAfterMs` after its stop, becomes `sin_reanudar` («Agente detenido sin reanudar»: red,
 *   the tone, the projector), logged with its host name and last heartbeat, as a silence is;
 * - a machine's coalesced change that has held `quietMs` is logged (at the time it happened) and
 *   shown;
 * - a team whose agent named no machine and is silent goes offline (with the alert and a log row in
 *   the active contest), as before presence per machine; one stopped (`detenido`) whose last heartbeat
 *   is older than `offlineAfterMs` becomes `sin_reanudar`, logged.
 * Then machine rows silent for `expireAfterMs` are deleted (`deleteExpiredMachines`), outside the
 * transaction. Answers the board rows to push.
 */
export async function sweepSilentAgents(
  em: EntityManager,
  options: PresenceOptions & { expireAfterMs: number },
): Promise<BoardTeam[]> {
  const { offlineAfterMs, quietMs } = options;
  const rows = await transaction(em, async (tem) => {
    const now = new Date();
    const silentBefore = new Date(now.getTime() - offlineAfterMs);
    const activeId = (await activeContest(tem))?.id ?? null;
    const changed = await teamsWithMachineChanges(
      tem,
      activeId,
      silentBefore,
      new Date(now.getTime() - quietMs),
    );
    const silentTeams = await lockSilentAgents(tem, silentBefore);
    const stoppedTeams = activeId === null ? [] : await lockStoppedAgents(tem, activeId, silentBefore);
    const withMachines = await lockAgentTeams(
      tem,
      changed.filter((id) => ![...silentTeams, ...stoppedTeams].some((team) => team.teamId === id)),
    );
    const teams = [...silentTeams, ...stoppedTeams, ...withMachines];
    if (teams.length === 0) return [];
    const machines = await machinePresences(
      tem,
      teams.map((team) => team.teamId),
    );
    const pushed: BoardTeam[] = [];
    const alarmedTeams: AgentPresence[] = [];
    const quietTeams: AgentPresence[] = [];
    const notResumedTeams: AgentPresence[] = [];
    for (const team of teams) {
      const active = team.contestId === activeId;
      const mine = machines.filter((m) => m.teamId === team.teamId);
      if (mine.length === 0) {
        if (active && !team.online && team.alert === 'detenido') notResumedTeams.push(team);
        else (active ? alarmedTeams : quietTeams).push(team);
        continue;
      }
      for (const machine of mine) {
        if (
          active &&
          machine.alert === null &&
          machine.lastSeen < silentBefore &&
          (await markMachineSilent(tem, machine.id, silentBefore, now))
        ) {
          // Silent since its last heartbeat, so its previous change is at least a window old.
          machine.alert = 'sin_senal';
          machine.changedAt = now;
          machine.logged = 'sin_senal';
          await recordAgentEvent(tem, {
            contestId: team.contestId,
            teamId: team.teamId,
            kind: 'sin_senal',
            at: now,
            lastSeen: machine.lastSeen,
            hostname: machine.hostname,
          });
        } else if (
          active &&
          machine.alert === 'detenido' &&
          machine.changedAt !== null &&
          machine.changedAt < silentBefore &&
          machine.lastSeen < silentBefore &&
          (await markMachineNotResumed(tem, machine.id, silentBefore))
        ) {
          // Stopped a whole window ago and not back: as much an alarm as a silence. A stop still held
          // as a flap (never announced) is logged first, at the time it happened.
          if (machine.logged !== 'detenido')
            await recordAgentEvent(tem, {
              contestId: team.contestId,
              teamId: team.teamId,
              kind: 'detenido',
              at: machine.changedAt,
              lastSeen: machine.lastSeen,
              hostname: machine.hostname,
            });
          machine.alert = 'sin_reanudar';
          machine.logged = 'sin_reanudar';
          await recordAgentEvent(tem, {
            contestId: team.contestId,
            teamId: team.teamId,
            kind: 'sin_reanudar',
            at: now,
            lastSeen: machine.lastSeen,
            hostname: machine.hostname,
          });
        } else if (
          stateOf(machine.alert) !== stateOf(machine.logged) &&
          machine.changedAt !== null &&
          now.getTime() - machine.changedAt.getTime() >= quietMs
        ) {
          // A flap that settled: its last state, once.
          const kind = stateOf(machine.alert);
          machine.logged = kind;
          await updateMachinePresence(tem, machine.id, { logged: kind });
          if (active)
            await recordAgentEvent(tem, {
              contestId: team.contestId,
              teamId: team.teamId,
              kind,
              at: machine.changedAt,
              lastSeen: machine.lastSeen,
              hostname: machine.hostname,
            });
        }
      }
      const row = await settleTeam(tem, team, active, now, offlineAfterMs, mine);
      if (row) pushed.push(row);
    }
    // Teams whose agent names no machine: the team-level rules.
    await markAgentsOffline(
      tem,
      alarmedTeams.filter((team) => team.online).map((team) => team.teamId),
      'sin_senal',
    );
    await markAgentsOffline(
      tem,
      quietTeams.filter((team) => team.online).map((team) => team.teamId),
    );
    for (const agent of alarmedTeams.filter((team) => team.online)) {
      await recordAgentEvent(tem, {
        contestId: agent.contestId,
        teamId: agent.teamId,
        kind: 'sin_senal',
        at: now,
        lastSeen: agent.lastSeen,
      });
    }
    await markAgentsOffline(
      tem,
      notResumedTeams.map((team) => team.teamId),
      'sin_reanudar',
    );
    for (const agent of notResumedTeams) {
      await recordAgentEvent(tem, {
        contestId: agent.contestId,
        teamId: agent.teamId,
        kind: 'sin_reanudar',
        at: now,
        lastSeen: agent.lastSeen,
      });
    }
    const teamLevel = [
      ...[...alarmedTeams, ...quietTeams].filter((team) => team.online),
      ...notResumedTeams,
    ].map((team) => team.teamId);
    return [...pushed, ...(teamLevel.length > 0 ? await boardRows(tem, teamLevel) : [])];
  });
  const activeId = (await activeContest(em))?.id ?? null;
  await deleteExpiredMachines(em, activeId, new Date(Date.now() - options.expireAfterMs));
  return rows;
}

/**
 * The agent of team `teamId` says it is being stopped the documented way, on machine
 * `hostname` (presence per machine; none: every machine of the team, as agents that name no machine
 * do). The machine gets `detenido` and, during the active contest, the log entry `detenido` naming it
 * (its silence then raises no `sin_senal`); the team's board row shows it offline with `detenido` when
 * no other machine beats. Coalesced when the machine flaps (`quietMs`). `address`: the request's
 * source address, recorded on the machine. Answers the row to push, or null when the boards need
 * nothing.
 */
export async function recordAgentStopped(
  em: EntityManager,
  teamId: number,
  options: PresenceOptions,
  hostname?: string,
  address: string | null = null,
): Promise<BoardTeam | null> {
  return transaction(em, async (tem) => {
    const before = await lockAgentPresence(tem, teamId);
    if (!before) return null;
    const now = new Date();
    const active = (await activeContest(tem))?.id === before.contestId;
    const machines = await machinePresences(tem, [teamId]);
    if (machines.length > 0) {
      const stopping = machines.filter((m) => (hostname === undefined ? true : m.hostname === hostname));
      let announced = false;
      for (const machine of stopping) {
        if (machine.alert !== null) {
          await updateMachinePresence(tem, machine.id, { address });
          continue;
        }
        const alone = hostname === undefined || standsAlone(machine.changedAt, now, options.quietMs);
        machine.alert = 'detenido';
        machine.changedAt = now;
        if (alone) machine.logged = 'detenido';
        await updateMachinePresence(tem, machine.id, {
          alert: 'detenido',
          changedAt: now,
          address,
          ...(alone ? { logged: 'detenido' } : {}),
        });
        if (alone && hostname !== undefined && active)
          await recordAgentEvent(tem, {
            contestId: before.contestId,
            teamId,
            kind: 'detenido',
            at: now,
            lastSeen: machine.lastSeen,
            hostname,
          });
        announced ||= alone;
      }
      if (!announced) return null;
      // A stop that names no machine is one row for the team, as before presence per machine.
      if (hostname === undefined && active)
        await recordAgentEvent(tem, {
          contestId: before.contestId,
          teamId,
          kind: 'detenido',
          at: now,
          lastSeen: before.lastSeen,
        });
      return settleTeam(tem, before, active, now, options.offlineAfterMs, machines);
    }
    if (!before.online) return null;
    await markAgentsOffline(tem, [teamId], active ? 'detenido' : null);
    if (active) {
      await recordAgentEvent(tem, {
        contestId: before.contestId,
        teamId,
        kind: 'detenido',
        at: now,
        lastSeen: before.lastSeen,
      });
    }
    return (await boardRows(tem, [teamId]))[0] ?? null;
  });
}

/**
 * An admin removes machine `machineId` from the lab board (`POST /api/removeLabMachine`): its row and
 * its alert go; its team's board row follows the machines left (its «Agente sin señal» clears when no
 * other machine holds one). Answers the row to push (null: nothing changed), or undefined when there
 * is no such machine.
 */
export async function removeMachine(
  em: EntityManager,
  machineId: number,
  offlineAfterMs: number,
): Promise<BoardTeam | null | undefined> {
  return transaction(em, async (tem) => {
    const teamId = await machineTeam(tem, machineId);
    if (teamId === null) return undefined;
    const before = await lockAgentPresence(tem, teamId);
    if (!before || !(await deleteMachine(tem, machineId))) return undefined;
    const now = new Date();
    const active = (await activeContest(tem))?.id === before.contestId;
    const left = await machinePresences(tem, [teamId]);
    if (left.length > 0) return settleTeam(tem, before, active, now, offlineAfterMs, left);
    // No machine left: the team-level presence, which a «sin señal» of a removed machine no longer holds.
    if (!before.alert) return null;
    const online = before.lastSeen !== null && now.getTime() - before.lastSeen.getTime() < offlineAfterMs;
    if (online) await markAgentSeen(tem, teamId, before.lastSeen!, true);
    else await markAgentsOffline(tem, [teamId], null);
    return (await boardRows(tem, [teamId]))[0] ?? null;
  });
}
