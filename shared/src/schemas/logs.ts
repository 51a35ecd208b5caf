import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { contestRowSchema } from './catalogs.js';
import { embeddedRowSchema, idSchema, printableText, rowIntSchema } from './common.js';

/**
 * Schemas of the contest log `/bitacora`: every attempt and every
 * block / unblock of the active contest in one list, newest first, read by `GET /api/contestLog`.
 * Times are ISO 8601 (UTC) on the wire; the screens show them in Spanish form.
 */

/** Most rows `GET /api/contestLog` answers: the newest ones (`truncated` says when there were more). */
export const CONTEST_LOG_LIMIT = 5_000;

/**
 * The kinds of a log row: an attempt the team's agent reported, a change of the team's status, an
 * event of the team's agent (`AGENT_EVENT_KINDS`), a judges' message to the team,
 * a change of the contest's allowed sites (`red`, of every team: no team or level), or a judge's
 * «Ver pantalla» of the team's screen (`pantalla`: `user` who asked, `hostname` the machine or null for
 * all of them; server/src/modules/captures/README.md).
 */
export const CONTEST_LOG_KINDS = ['intento', 'estatus', 'agente', 'mensaje', 'red', 'pantalla'] as const;
export type ContestLogKind = (typeof CONTEST_LOG_KINDS)[number];

/**
 * What happened to a team's agent during the active contest (docs/design.md section 6a):
 * `sin_senal` it fell silent without saying so (no heartbeat for `AGENT_OFFLINE_AFTER_MS`),
 * `detenido` it was stopped the documented way, `sin_reanudar` stopped and not back within that same
 * window (an alarm, as `sin_senal`), `en_linea` it beat again after a silence, `reanudado` it beat
 * again after a stop (the same «en línea» row, saying how long it was stopped, not silent).
 */
export const AGENT_EVENT_KINDS = ['sin_senal', 'detenido', 'en_linea', 'sin_reanudar', 'reanudado'] as const;
export type AgentEventKind = (typeof AGENT_EVENT_KINDS)[number];

/** What a message row of the log folds in: its target teams' receipts, counted, and who could not be shown it. */
export const messageLogReceiptsSchema = z.object({
  teams: rowIntSchema,
  delivered: rowIntSchema,
  seen: rowIntSchema,
  /** Teams not shown it whose machine said it could not (`falló`). */
  failed: rowIntSchema,
  /** The first of those (by team name, at most `MESSAGE_LOG_FAILURES`), with the machine and why. */
  failures: z.array(z.object({ team: z.string(), hostname: z.string().nullable(), reason: z.string() })),
});
export type MessageLogReceipts = z.infer<typeof messageLogReceiptsSchema>;

/** Failures a message row of the log names at most; the rest are counted ('y 3 más'). */
export const MESSAGE_LOG_FAILURES = 5;

/**
 * CAMBIO of a message row: one row per message with its receipts folded in, e.g. 'Mensaje a Todos los
 * equipos: «Quedan 30 minutos» — entregado 28/30, visto 20/30, falló 1 (Los Punteros en lab-05: sin
 * sesión gráfica)'. The failure part only when a team could not be shown it.
 */
export function messageLogText(target: string, text: string, receipts: MessageLogReceipts): string {
  const { teams, delivered, seen, failed, failures } = receipts;
  let line = `Mensaje a ${target}: «${text}» — entregado ${delivered}/${teams}, visto ${seen}/${teams}`;
  if (failed > 0) {
    const named = failures.map((f) => `${f.team}${f.hostname ? ` en ${f.hostname}` : ''}: ${f.reason}`);
    const more = failed - named.length;
    line += `, falló ${failed}`;
    if (named.length > 0) line += ` (${named.join('; ')}${more > 0 ? `; y ${more} más` : ''})`;
  }
  return line;
}

/**
 * CAMBIO of a network policy row: 'Sitios permitidos v2: docs.python.org, 10.0.0.0/8', or
 * 'Sitios permitidos v3: ninguno (red sin restricciones)' when the list was emptied.
 */
export function networkLogText(version: number, sites: readonly string[]): string {
  return `Sitios permitidos v${version}: ${sites.length > 0 ? sites.join(', ') : 'ninguno (red sin restricciones)'}`;
}

/** A silence's length as the log says it: '45 s', '2 min 13 s', '1 h 5 min' (ms in, rounded down to s). */
export function silenceText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${min} min`;
  return min > 0 ? `${min} min ${s} s` : `${s} s`;
}

/**
 * CAMBIO of an agent's log row: 'Agente sin señal (última señal <lastSeen>)', 'Agente
 * detenido', 'Agente detenido sin reanudar (última señal <lastSeen>)', 'Agente de nuevo en línea tras
 * <silence> sin señal' and, back after a stop, '… tras <length> detenido' (a stop is not a silence).
 * `lastSeen` comes formatted by the screen (its local time); null leaves the parenthesis out. With the
 * machine's host name (presence per machine, docs/design.md section 6a): 'Agente sin señal en lab-07
 * (última señal …)'.
 */
export function agentEventText(
  event: AgentEventKind,
  lastSeen: string | null,
  silenceMs: number | null,
  hostname: string | null = null,
): string {
  const where = hostname ? ` en ${hostname}` : '';
  if (event === 'sin_senal')
    return lastSeen ? `Agente sin señal${where} (última señal ${lastSeen})` : `Agente sin señal${where}`;
  if (event === 'detenido') return `Agente detenido${where}`;
  if (event === 'sin_reanudar')
    return lastSeen
      ? `Agente detenido sin reanudar${where} (última señal ${lastSeen})`
      : `Agente detenido sin reanudar${where}`;
  const why = event === 'reanudado' ? 'detenido' : 'sin señal';
  return silenceMs === null
    ? `Agente de nuevo en línea${where}`
    : `Agente de nuevo en línea${where} tras ${silenceText(silenceMs)} ${why}`;
}

/**
 * Query string of `GET /api/contestLog`, every filter optional and combined with AND: `levels_id`
 * (the team's level), `teams_id` (one team) and `process` (attempts of that process name, compared as
 * the database collates, i.e. ignoring case; status changes have no process, so a process filter
 * leaves only attempts). An empty `process` is no filter. Ids are positive integers (422 otherwise).
 * `kind` keeps only the rows of one kind (`CONTEST_LOG_KINDS`: the screen's «Tipo» filter: intentos,
 * estatus, agentes, mensajes, red, pantallas); empty is no filter; anything else is a 422.
 */
export const contestLogQuerySchema = z.object({
  levels_id: idSchema.optional(),
  teams_id: idSchema.optional(),
  process: printableText(255)
    .optional()
    .transform((process) => (process ? process : undefined)),
  kind: z
    .union([z.enum(CONTEST_LOG_KINDS), z.literal('')])
    .optional()
    .transform((kind) => (kind ? kind : undefined)),
});
export type ContestLogQuery = z.infer<typeof contestLogQuerySchema>;

/**
 * One row of the contest log. `id` is the attempt's or the status change's own id (unique within its
 * `kind`). `at` is when the server recorded it (an attempt's `received_at`, a change's `at`). Fields of
 * the other kind are null: an attempt has `process`, `killed` and `occurred_at` (the agent's clock);
 * a status change has `from` and `to` (status names), `user` (the judge's name; null for an automatic
 * block or a deleted account) and `automatic` (always false for an attempt); an agent row
 * has `agent_event`, `last_seen` and `silence_ms`.
 */
export const contestLogRowSchema = z.object({
  kind: z.enum(CONTEST_LOG_KINDS),
  id: rowIntSchema,
  at: z.string(),
  /** The row's team and its level; null on a `red` row (the contest's, of every team). */
  team: embeddedRowSchema('name').nullable(),
  level: embeddedRowSchema('level').nullable(),
  process: z.string().nullable(),
  /** An attempt's renamed file name (`attemptProcessLabel`), else null. */
  executable: z.string().nullable(),
  /** What ran an attempt's program when a loader or an interpreter did (`attemptProcessLabel`); else null or absent. */
  via: z.string().nullable().optional(),
  killed: z.boolean().nullable(),
  occurred_at: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  user: z.string().nullable(),
  automatic: z.boolean(),
  /** An agent row's event, else null. */
  agent_event: z.enum(AGENT_EVENT_KINDS).nullable().default(null),
  /** An agent row's last heartbeat before it fell silent or stopped (ISO 8601), else null. */
  last_seen: z.string().nullable().default(null),
  /** How long an agent back `en_linea` was silent (ms), else null. */
  silence_ms: rowIntSchema.nullable().default(null),
  /** An agent row's machine (its host name; presence per machine), null for a whole team's agent. */
  hostname: z.string().nullable().default(null),
  /**
   * A message row's text (its sender is `user`), else null. A message is ONE row however many teams it
   * went to: its `team` is the one team it went to (null for a level or everyone), its `level` the
   * level it went to (or that team's).
   */
  message: z.string().nullable().default(null),
  /** A message row's target as the dialog says it: 'Todos los equipos', 'Nivel Básico', 'Equipo X'. */
  message_target: z.string().nullable().default(null),
  /** A message row's receipts folded in (of the teams the filters keep), else null. */
  message_receipts: messageLogReceiptsSchema.nullable().default(null),
  /** A `red` row's version and the allowed sites it set (its author is `user`), else null. */
  network_version: rowIntSchema.nullable().default(null),
  allowed_sites: z.array(z.string()).nullable().default(null),
});
export type ContestLogRow = z.infer<typeof contestLogRowSchema>;

/**
 * `data` of `GET /api/contestLog`: the active contest (null when none is active; then `rows` is empty
 * and the screen says `MESSAGES.noActiveContest`), its log rows newest first (equal times: a status
 * change before an attempt, since an automatic block follows the attempt that caused it; then the
 * higher id first), at most `CONTEST_LOG_LIMIT`, and `truncated` when older rows were left out.
 */
export const contestLogSchema = z.object({
  contest: contestRowSchema.nullable(),
  rows: z.array(contestLogRowSchema),
  truncated: z.boolean(),
});
export type ContestLog = z.infer<typeof contestLogSchema>;

/** Who made a status change, as the logs show it. */
export interface StatusChangeAuthor {
  /** The judge's name; null for an automatic block or when their account was deleted since. */
  user: string | null;
  automatic: boolean;
}

/**
 * The /bitacora table's column headers, in column order, keyed by the field of the screen's
 * row they head; the exported sheet's header row is the same list.
 */
export const CONTEST_LOG_HEADERS = {
  at: 'FECHA',
  kind: 'TIPO',
  team: 'EQUIPO',
  level: 'NIVEL',
  process: 'PROCESO',
  occurredAt: 'EN LA MÁQUINA',
  killed: 'TERMINADO',
  change: 'CAMBIO',
  who: 'QUIÉN',
} as const;

/** What the logs show for a deleted judge's change. */
export const DELETED_USER_LABEL = 'Usuario eliminado';

/**
 * The "who" of a status change: 'automático' (`MESSAGES.automaticBlock`) for the server's
 * block at `max_attempts`, else the judge's name, or 'Usuario eliminado' when their account is gone.
 */
export function statusChangeAuthor({ user, automatic }: StatusChangeAuthor): string {
  if (automatic) return MESSAGES.automaticBlock;
  return user ?? DELETED_USER_LABEL;
}

/** Whether the agent ended an attempt's process, as the logs show it: 'Sí' or 'No'. */
export function killedLabel(killed: boolean): 'Sí' | 'No' {
  return killed ? 'Sí' : 'No';
}

/** A status change as the logs show it: 'Activo → Descalificado'. */
export function statusChangeText(from: string, to: string): string {
  return `${from} → ${to}`;
}
