import { z } from 'zod';
import { AGENT_ALERTS } from './board.js';
import { contestRowSchema } from './catalogs.js';
import { embeddedRowSchema, idSchema, printableText, rowIntSchema } from './common.js';
import { NETWORK_FILTERS, type NetworkFilter } from './network.js';

/**
 * The lab board `/laboratorio` (docs/design.md section 6a): one row per machine running an agent
 * of the active contest, and whether every team is ready before the start.
 */

/** Most machines remembered per team: a stolen key sending made-up host names cannot grow the table. */
export const LAB_MAX_MACHINES_PER_TEAM = 10;

/**
 * Presence per machine (docs/design.md section 6a; the module README of server/src/modules/agent says the
 * rules). A machine silent longer than `AGENT_OFFLINE_AFTER_MS` no longer counts toward
 * `LAB_MAX_MACHINES_PER_TEAM`; one silent `expireWindows` times that window is deleted by the sweep,
 * unless it holds the «sin señal» alert of the active contest (that one waits for the machine or an
 * admin's «Quitar»). At most `maxRowsPerTeam` rows per team in all, whatever a key invents.
 * Presence changes of one machine closer than `quietPeriods` presence periods (the heartbeat period in
 * whole seconds, at least 1 s: `AGENT_PRESENCE_LIMITS`) to its previous change are coalesced: the
 * machine's row follows them, the log and the boards get the last state once it has held that long
 * (the sweep writes it). Two periods: a key flapping as fast as the rate limits let it (a burst each
 * period) never stands still that long, so it leaves one row for its first change and one for its last.
 */
export const LAB_MACHINE_LIMITS = {
  expireWindows: 10,
  maxRowsPerTeam: 3 * LAB_MAX_MACHINES_PER_TEAM,
  quietPeriods: 2,
} as const;

/**
 * Presence calls one agent key may make (docs/design.md section 6a: a flapping or stolen key leaves bounded
 * traces): per machine (key and host name) at most `heartbeatsPerPeriod` heartbeats and
 * `stopsPerPeriod` stop notices each presence period (the heartbeat period, `AGENT_OFFLINE_AFTER_MS` / 3
 * at most 10 s, in whole seconds, at least 1 s; an honest agent beats once a period), and per key
 * `LAB_MACHINE_LIMITS.maxRowsPerTeam` times that. Past a limit the server answers 429 with
 * `Retry-After` (s).
 */
export const AGENT_PRESENCE_LIMITS = {
  heartbeatsPerPeriod: 5,
  stopsPerPeriod: 3,
} as const;

/**
 * How long after a change of a team's policy (ms) a machine still beating with the policy that was
 * current just before counts as ready and «Al día» on /laboratorio. The agents apply a change within
 * about 1 s (the push channel), but say so only with their next heartbeat, up to one period later
 * (`AGENT_HEARTBEAT_MS`, 10 s at most): without this grace «Listos» fell to «0 de N» and every row
 * read «Atrasada» for a few seconds after each change. 12 s: a whole period and a margin.
 */
export const LAB_POLICY_GRACE_MS = 12_000;

/**
 * Body of `POST /api/agent/stopped`: the host name of the machine whose agent stops (absent from
 * agents that predate presence per machine: the stop is then the whole team's).
 */
export const agentStoppedSchema = z.object({ hostname: printableText(255).optional() }).default({});
export type AgentStopped = z.infer<typeof agentStoppedSchema>;

/** Body of `POST /api/removeLabMachine` (admins): the machine (`LabMachine.id`) to forget. */
export const labMachineRemoveSchema = z.object({ id: idSchema });
export type LabMachineRemove = z.infer<typeof labMachineRemoveSchema>;

/**
 * A machine's policy state: `al_dia` it applied the team's current policy (green), `atrasada` it runs
 * an older one (amber), `sin_senal` it has not been heard within `AGENT_OFFLINE_AFTER_MS` (red).
 */
export const LAB_POLICY_STATES = ['al_dia', 'atrasada', 'sin_senal'] as const;
export type LabPolicyState = (typeof LAB_POLICY_STATES)[number];

/** One machine of `GET /api/labMachines`. Times are ISO 8601 on the server's clock. */
export const labMachineSchema = z.object({
  /** The machine's row, for `POST /api/removeLabMachine`. */
  id: rowIntSchema,
  team: embeddedRowSchema('name'),
  level: embeddedRowSchema('level'),
  hostname: z.string(),
  /** The agent's system, e.g. `linux 6.1.0` or `win32 10.0.19045`. */
  os: z.string(),
  /** The agent's version. */
  version: z.string(),
  /** Whether it was heard within `AGENT_OFFLINE_AFTER_MS` and has no alert of its own. */
  online: z.boolean(),
  /** The source address of its last heartbeat or stop notice (the server's `TRUST_PROXY` rule), if any. */
  address: z.string().nullable(),
  /** Since when it has been heard without a gap longer than that window. */
  online_since: z.string(),
  last_seen: z.string(),
  /** The policy version it last said it applied, and the team's current one. */
  policy_version: z.string(),
  policy_current: z.string(),
  policy_state: z.enum(LAB_POLICY_STATES),
  /** The agent's clock minus the server's at its last heartbeat (ms; positive: the machine is ahead). */
  clock_offset_ms: z.number().int().nullable(),
  /**
   * This machine's own alert (presence per machine, docs/design.md section 6a): `sin_senal` it fell silent
   * during the active contest, `detenido` its agent said it stopped, `sin_reanudar` stopped during the
   * active contest and not back within the window; null while it beats.
   */
  alert: z.enum(AGENT_ALERTS).nullable(),
  /** When its alert began (ISO 8601, the server's clock): the stop or the silence; null without one. */
  alert_since: z.string().nullable().default(null),
  /**
   * The network policy version the machine said is in force (0: none, null: it never said),
   * the contest's current one, whether that one has destinations, and why the machine could not put
   * it in force (Spanish), if it failed.
   */
  network_version: z.number().int().nullable(),
  network_current: rowIntSchema,
  network_restricted: z.boolean(),
  network_error: z.string().nullable(),
  /**
   * The allowed host names the machine said its policy in force left out because they did not resolve
   * (at most `NETWORK_UNRESOLVED_MAX`); empty (or absent, from an older server) when every one resolved.
   */
  network_unresolved: z.array(z.string()).optional(),
  /**
   * How the machine said its policy filters an allowed host name (`NETWORK_FILTERS`: `name` on Linux,
   * `address` on Windows); null when it never said (an older agent), absent from an older server.
   */
  network_filter: z.enum(NETWORK_FILTERS).nullable().optional(),
  /** Whether the contest's current policy lists a host name (what `network_filter` is about). */
  network_hosts: z.boolean().optional(),
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

/** How /laboratorio shows a machine's network policy: its text and colour. */
export interface LabNetworkState {
  text: string;
  tone: 'ok' | 'warning' | 'error' | 'neutral';
}

/**
 * What /laboratorio adds to «red: v3 aplicada» when the policy lists a host name, by how the machine
 * filters it (`network_filter`): by the name itself (Linux), or only by its addresses (Windows, whose
 * firewall cannot read a connection's name: every site on those addresses is reachable too;
 * agent/README.md, «Sitios permitidos»). Green either way: the machine applies what it can.
 */
export const LAB_NETWORK_FILTER_TEXTS = {
  byName: 'filtro por nombre',
  byAddressWindows: 'solo por dirección: Windows no filtra por nombre',
  byAddress: 'solo por dirección',
} as const;

/** The note of `LAB_NETWORK_FILTER_TEXTS` for a machine (system `os`, e.g. `win32 10.0.19045`). */
function filterNote(filter: NetworkFilter, os: string): string {
  if (filter === 'name') return LAB_NETWORK_FILTER_TEXTS.byName;
  return os.startsWith('win32')
    ? LAB_NETWORK_FILTER_TEXTS.byAddressWindows
    : LAB_NETWORK_FILTER_TEXTS.byAddress;
}

/**
 * A machine's network policy on /laboratorio: 'red: v3 aplicada' (green) when it has the contest's
 * current version in force and every allowed name resolved, with how it filters the allowed names
 * when the policy lists one and the machine said (`LAB_NETWORK_FILTER_TEXTS`): 'red: v3 aplicada
 * (filtro por nombre)', 'red: v3 aplicada (solo por dirección: Windows no filtra por nombre)';
 * 'red: v3 aplicada en parte: no se resolvió omegaup.com' (amber) when some did not (those sites are
 * not reachable until they do), 'red: no aplicada (<reason>)' (red) when it said it could not,
 * 'red: v2 (actual v3)' (amber) while it has an older one, 'red: sin restricciones' when the contest
 * has no list and the machine has none in force, 'red: sin informar (actual v3)' (amber) when its
 * agent never said (an older agent).
 */
export function labNetworkState(
  machine: Pick<
    LabMachine,
    'network_version' | 'network_current' | 'network_restricted' | 'network_error'
  > & {
    network_unresolved?: readonly string[];
    network_filter?: NetworkFilter | null;
    network_hosts?: boolean;
    os?: string;
  },
): LabNetworkState {
  if (machine.network_error) return { text: `red: no aplicada (${machine.network_error})`, tone: 'error' };
  if (machine.network_version === null)
    return machine.network_restricted
      ? { text: `red: sin informar (actual v${machine.network_current})`, tone: 'warning' }
      : { text: 'red: sin restricciones', tone: 'neutral' };
  const applied = machine.network_version;
  if (applied !== machine.network_current)
    return { text: `red: v${applied} (actual v${machine.network_current})`, tone: 'warning' };
  if (!machine.network_restricted) return { text: 'red: sin restricciones', tone: 'neutral' };
  const unresolved = machine.network_unresolved ?? [];
  if (unresolved.length === 0) {
    const filter = machine.network_hosts ? machine.network_filter : null;
    const note = filter ? ` (${filterNote(filter, machine.os ?? '')})` : '';
    return { text: `red: v${applied} aplicada${note}`, tone: 'ok' };
  }
  const verb = unresolved.length === 1 ? 'no se resolvió' : 'no se resolvieron';
  return { text: `red: v${applied} aplicada en parte: ${verb} ${unresolved.join(', ')}`, tone: 'warning' };
}
