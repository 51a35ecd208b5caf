import { z } from 'zod';
import { AGENT_ALERTS } from './board.js';
import { contestRowSchema } from './catalogs.js';
import { embeddedRowSchema, rowIntSchema } from './common.js';

/**
 * The lab board `/laboratorio` (issue 24, DESIGN.md section 6a): one row per machine running an agent
 * of the active contest, and whether every team is ready before the start.
 */

/** Most machines remembered per team: a stolen key sending made-up host names cannot grow the table. */
export const LAB_MAX_MACHINES_PER_TEAM = 10;

/**
 * A machine's policy state: `al_dia` it applied the team's current policy (green), `atrasada` it runs
 * an older one (amber), `sin_senal` it has not been heard within `AGENT_OFFLINE_AFTER_MS` (red).
 */
export const LAB_POLICY_STATES = ['al_dia', 'atrasada', 'sin_senal'] as const;
export type LabPolicyState = (typeof LAB_POLICY_STATES)[number];

/** One machine of `GET /api/labMachines`. Times are ISO 8601 on the server's clock. */
export const labMachineSchema = z.object({
  team: embeddedRowSchema('name'),
  level: embeddedRowSchema('level'),
  hostname: z.string(),
  /** The agent's system, e.g. `linux 6.1.0` or `win32 10.0.19045`. */
  os: z.string(),
  /** The agent's version. */
  version: z.string(),
  /** Whether it was heard within `AGENT_OFFLINE_AFTER_MS`. */
  online: z.boolean(),
  /** Since when it has been heard without a gap longer than that window. */
  online_since: z.string(),
  last_seen: z.string(),
  /** The policy version it last said it applied, and the team's current one. */
  policy_version: z.string(),
  policy_current: z.string(),
  policy_state: z.enum(LAB_POLICY_STATES),
  /** The agent's clock minus the server's at its last heartbeat (ms; positive: the machine is ahead). */
  clock_offset_ms: z.number().int().nullable(),
  /** The team's agent alert on the boards (issue 24), if any. */
  alert: z.enum(AGENT_ALERTS).nullable(),
  /**
   * Issue 25: the network policy version the machine said is in force (0: none, null: it never said),
   * the contest's current one, whether that one has destinations, and why the machine could not put
   * it in force (Spanish), if it failed.
   */
  network_version: z.number().int().nullable(),
  network_current: rowIntSchema,
  network_restricted: z.boolean(),
  network_error: z.string().nullable(),
});
export type LabMachine = z.infer<typeof labMachineSchema>;

/**
 * `data` of `GET /api/labMachines`: the active contest (null: none, and nothing else), how many of its
 * teams are ready (an agent heard within the window that applied the current policy), how many teams
 * it has, the teams without a running agent, and every machine, by team name then host name.
 */
export const labMachinesSchema = z.object({
  contest: contestRowSchema.nullable(),
  ready: rowIntSchema,
  teams: rowIntSchema,
  missing: z.array(z.object({ id: rowIntSchema, name: z.string(), level: z.string() })),
  machines: z.array(labMachineSchema),
});
export type LabMachines = z.infer<typeof labMachinesSchema>;

/** The readiness line: 'Listos: 28 de 30 equipos'. */
export const labReadinessText = (ready: number, teams: number): string =>
  `Listos: ${ready} de ${teams} ${teams === 1 ? 'equipo' : 'equipos'}`;

/** How /laboratorio shows a machine's network policy (issue 25): its text and colour. */
export interface LabNetworkState {
  text: string;
  tone: 'ok' | 'warning' | 'error' | 'neutral';
}

/**
 * A machine's network policy on /laboratorio: 'red: v3 aplicada' (green) when it has the contest's
 * current version in force, 'red: no aplicada (<reason>)' (red) when it said it could not, 'red: v2 (actual
 * v3)' (amber) while it has an older one, 'red: sin restricciones' when the contest has no list and
 * the machine has none in force, 'red: sin informar (actual v3)' (amber) when its agent never said (an
 * older agent).
 */
export function labNetworkState(
  machine: Pick<LabMachine, 'network_version' | 'network_current' | 'network_restricted' | 'network_error'>,
): LabNetworkState {
  if (machine.network_error) return { text: `red: no aplicada (${machine.network_error})`, tone: 'error' };
  if (machine.network_version === null)
    return machine.network_restricted
      ? { text: `red: sin informar (actual v${machine.network_current})`, tone: 'warning' }
      : { text: 'red: sin restricciones', tone: 'neutral' };
  const applied = machine.network_version;
  if (applied === machine.network_current)
    return machine.network_restricted
      ? { text: `red: v${applied} aplicada`, tone: 'ok' }
      : { text: 'red: sin restricciones', tone: 'neutral' };
  return { text: `red: v${applied} (actual v${machine.network_current})`, tone: 'warning' };
}
