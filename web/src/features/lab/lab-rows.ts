import {
  agentBadgeText,
  labNetworkState,
  type LabMachine,
  type LabNetworkState,
  type LabPolicyState,
} from '@concurso/shared';
import { formatDateTime } from '../../ui/date-time';

/**
 * The pure rules of /laboratorio (issue 24, the lab board): each machine as the table shows and
 * exports it. Tested in Node.
 */

/** One row of the /laboratorio table: every cell already text. */
export interface LabTableRow {
  /** The row's place in the server's order (team name, host name), stable while the list is. */
  id: number;
  /** The machine's row on the server (`POST /api/removeLabMachine`). */
  machineId: number;
  team: string;
  level: string;
  hostname: string;
  os: string;
  version: string;
  /** DIRECCIÓN: the source address of its last request, '' when none was recorded. */
  address: string;
  /** EN LÍNEA: 'Desde 26/11/2026 09:00:05', or 'Sin señal desde …' when it was not heard in the window. */
  seen: string;
  /** POLÍTICA: 'Al día', 'Atrasada' or 'Sin señal'. */
  policy: string;
  policyState: LabPolicyState;
  /** RELOJ: the machine's clock against the server's ('+2.0 s', '-0.3 s'), '' when unknown. */
  clock: string;
  /** AGENTE: this machine's own presence as the boards' badge says it ('Agente sin señal'…). */
  agent: string;
  /** RED (issue 25): 'red: v3 aplicada', 'red: v2 (actual v3)', 'red: no aplicada (…)', 'red: sin restricciones'. */
  network: string;
  networkTone: LabNetworkState['tone'];
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

/** A clock offset as the table says it: one decimal of a second, with its sign. */
export function clockOffsetText(ms: number | null): string {
  if (ms === null) return '';
  const seconds = (ms / 1000).toFixed(1);
  return `${ms >= 0 ? '+' : ''}${seconds} s`;
}

/** The machines of `GET /api/labMachines` as the table shows them, in the server's order. */
export function labTableRows(machines: readonly LabMachine[]): LabTableRow[] {
  return machines.map((machine, index) => {
    const network = labNetworkState(machine);
    return {
      id: index + 1,
      machineId: machine.id,
      team: machine.team.name,
      level: machine.level.level,
      hostname: machine.hostname,
      os: machine.os,
      version: machine.version,
      address: machine.address ?? '',
      seen: machine.online
        ? `Desde ${formatDateTime(machine.online_since)}`
        : `Sin señal desde ${formatDateTime(machine.last_seen)}`,
      policy: LAB_POLICY_LABELS[machine.policy_state].text,
      policyState: machine.policy_state,
      clock: clockOffsetText(machine.clock_offset_ms),
      agent: agentBadgeText({ agent_online: machine.online, agent_alert: machine.alert }),
      // Issue 25: the shared text as is (the lab journey looks for it word for word).
      network: network.text,
      networkTone: network.tone,
    };
  });
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
