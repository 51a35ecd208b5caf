import {
  agentBadgeText,
  isAgentAlarm,
  labNetworkState,
  type LabMachine,
  type LabMachines,
  type LabNetworkState,
  type LabPolicyState,
} from '@concurso/shared';
import { formatDateTime } from '../../ui/date-time';

/**
 * The pure rules of /laboratorio (the lab board): each machine as the table shows and
 * exports it. Tested in Node.
 */

/** One row of the /laboratorio table: every cell already text. */
export interface LabTableRow {
  /** The row's place in the server's order (team name, host name), stable while the list is. */
  id: number;
  /** The machine's row on the server (`POST /api/removeLabMachine`). */
  machineId: number;
  /** The machine's team («Ver pantalla»). */
  teamId: number;
  team: string;
  level: string;
  hostname: string;
  os: string;
  version: string;
  /** DIRECCIÓN: the source address of its last request, '' when none was recorded. */
  address: string;
  /**
   * EN LÍNEA: 'Desde 26/11/2026 09:00:05'; 'Detenido desde …' (its stop) for an agent stopped the
   * documented way (a stop is not a silence), or 'Sin señal desde …' when it was not heard in the window.
   */
  seen: string;
  /** POLÍTICA: 'Al día', 'Atrasada', 'Sin señal' or, for a machine stopped the documented way, 'Detenido'. */
  policy: string;
  policyState: LabPolicyState;
  /** RELOJ: the machine's clock against the server's ('+2.0 s', '-0.3 s'), '' when unknown. */
  clock: string;
  /**
   * AGENTE: this machine's own presence as the boards' badge says it, with how long for a machine not
   * beating ('Agente en línea', 'Agente sin señal hace 2 min', 'Agente detenido hace 12 s'…).
   */
  agent: string;
  /** AGENTE's colour and the table's order: alarms first, then stops, silences, machines online. */
  agentState: LabAgentState;
  /** RED: 'red: v3 aplicada', 'red: v2 (actual v3)', 'red: no aplicada (…)', 'red: sin restricciones'. */
  network: string;
  networkTone: LabNetworkState['tone'];
}

/**
 * A machine's presence as /laboratorio ranks it: `alarma` (silent, or stopped and not resumed within
 * the window: «Agente sin señal», «Agente detenido sin reanudar»), `detenido` (a documented stop still
 * within the window), `sin_conexion` (not heard within the window, no alert: not the active contest's
 * alarm yet), `en_linea`.
 */
export type LabAgentState = 'alarma' | 'detenido' | 'sin_conexion' | 'en_linea';

/**
 * AGENTE's badge for each state, and its rank (higher first): the machines a judge must look at lead
 * the table instead of being buried among those that beat. Both alarms and stops are red (a stop
 * during the contest is what a cheater wants); an alarm's badge is solid.
 */
export const LAB_AGENT_STATES: Record<
  LabAgentState,
  { rank: number; palette: 'red' | 'gray' | 'green'; variant: 'solid' | 'subtle' }
> = {
  alarma: { rank: 3, palette: 'red', variant: 'solid' },
  detenido: { rank: 2, palette: 'red', variant: 'subtle' },
  sin_conexion: { rank: 1, palette: 'gray', variant: 'subtle' },
  en_linea: { rank: 0, palette: 'green', variant: 'subtle' },
};

/** How long ago, as AGENTE says it: '45 s', '2 min', '1 h 5 min' (ms in; never negative). */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A machine's presence state (`LabAgentState`). */
function labAgentState(machine: Pick<LabMachine, 'online' | 'alert'>): LabAgentState {
  if (machine.online) return 'en_linea';
  if (isAgentAlarm(machine.alert)) return 'alarma';
  return machine.alert === 'detenido' ? 'detenido' : 'sin_conexion';
}

/**
 * AGENTE's text at `nowMs`: the boards' badge and, for a machine not beating, how long since its alert
 * began (`alert_since`) or since it was last heard: 'Agente sin señal hace 2 min'.
 */
function labAgentText(
  machine: Pick<LabMachine, 'online' | 'alert' | 'alert_since' | 'last_seen'>,
  nowMs: number,
): string {
  const badge = agentBadgeText({ agent_online: machine.online, agent_alert: machine.alert });
  if (machine.online) return badge;
  const since = Date.parse(machine.alert_since ?? machine.last_seen);
  return Number.isNaN(since) ? badge : `${badge} hace ${agoText(nowMs - since)}`;
}

/** POLÍTICA of each state, and the colour of its badge (green, amber, red). */
export const LAB_POLICY_LABELS: Record<
  LabPolicyState,
  { text: string; palette: 'green' | 'orange' | 'red' }
> = {
  al_dia: { text: 'Al día', palette: 'green' },
  atrasada: { text: 'Atrasada', palette: 'orange' },
  sin_senal: { text: 'Sin señal', palette: 'red' },
};

/** The colour of RED's badge for each tone of `labNetworkState` (green, amber, red, grey). */
export const LAB_NETWORK_PALETTES: Record<LabNetworkState['tone'], 'green' | 'orange' | 'red' | 'gray'> = {
  ok: 'green',
  warning: 'orange',
  error: 'red',
  neutral: 'gray',
};

/**
 * A clock offset as the table says it: one decimal of a second, with its sign; what rounds to zero is
 * '0.0 s' (never '-0.0 s').
 */
export function clockOffsetText(ms: number | null): string {
  if (ms === null) return '';
  const tenths = Math.round(ms / 100);
  if (tenths === 0) return '0.0 s';
  return `${tenths > 0 ? '+' : '-'}${(Math.abs(tenths) / 10).toFixed(1)} s`;
}

/**
 * The machines of `GET /api/labMachines` as the table shows them at `nowMs` (the browser's clock, for
 * «hace …»): those with an alarm first, then the stopped ones, the unheard ones and the beating ones,
 * each group in the server's order (team name, host name); `id` is that place.
 */
export function labTableRows(machines: readonly LabMachine[], nowMs = Date.now()): LabTableRow[] {
  const ranked = machines
    .map((machine, index) => ({ machine, index, state: labAgentState(machine) }))
    .sort((a, b) => LAB_AGENT_STATES[b.state].rank - LAB_AGENT_STATES[a.state].rank || a.index - b.index);
  return ranked.map(({ machine, state }, index) => {
    const network = labNetworkState(machine);
    const stopped = machine.alert === 'detenido' || machine.alert === 'sin_reanudar';
    return {
      id: index + 1,
      machineId: machine.id,
      teamId: machine.team.id,
      team: machine.team.name,
      level: machine.level.level,
      hostname: machine.hostname,
      os: machine.os,
      version: machine.version,
      address: machine.address ?? '',
      seen: machine.online
        ? `Desde ${formatDateTime(machine.online_since)}`
        : stopped && machine.alert_since
          ? `Detenido desde ${formatDateTime(machine.alert_since)}`
          : `Sin señal desde ${formatDateTime(machine.last_seen)}`,
      // A stopped machine is not silent: its policy says why it is not applied.
      policy:
        stopped && machine.policy_state === 'sin_senal'
          ? 'Detenido'
          : LAB_POLICY_LABELS[machine.policy_state].text,
      policyState: machine.policy_state,
      clock: clockOffsetText(machine.clock_offset_ms),
      agent: labAgentText(machine, nowMs),
      agentState: state,
      // The shared text as is (the lab journey looks for it word for word).
      network: network.text,
      networkTone: network.tone,
    };
  });
}

/**
 * The teams of «Sin agente en marcha»: those without a running agent (`missing`) that have no machine
 * on the table either (never started one, or its row expired). A team whose machine is silent or
 * stopped is on the table, first and in red, not buried in this list.
 */
export function teamsWithoutMachine(
  lab: Pick<LabMachines, 'missing' | 'machines'> | undefined,
): LabMachines['missing'] {
  if (!lab) return [];
  const onTable = new Set(lab.machines.map((machine) => machine.team.id));
  return lab.missing.filter((team) => !onTable.has(team.id));
}

/**
 * The question before 'Quitar' (admins): the machine and its team, and what removing it does (its
 * alert goes; a machine that beats again comes back).
 */
export function removeMachineQuestion(row: Pick<LabTableRow, 'hostname' | 'team'>) {
  return {
    title: `¿Quitar la máquina ${row.hostname} de ${row.team}?`,
    message:
      'Deja de aparecer en el laboratorio y su alerta se borra. Si su agente vuelve a enviar latidos, ' +
      'aparecerá de nuevo.',
    confirmLabel: 'Sí, quitar',
    cancelLabel: 'Cancelar',
  };
}
