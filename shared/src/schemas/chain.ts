import { z } from 'zod';
import { idSchema, rowIntSchema } from './common.js';

/**
 * The contest's chained log (server/src/modules/chain/README.md): every row of a contest's history
 * (an attempt, a status change, an agent event, a message, a change of the allowed sites, a screen
 * capture) is a link of one hash chain per contest, so a row changed or deleted behind the server's
 * back is found. `GET /api/contestLog/verify` recomputes it; /bitacora's «Verificar la cadena» says
 * what it found with `chainVerdictText`.
 */

/**
 * The kinds of a chain row: the contest log's (`CONTEST_LOG_KINDS`) and `captura`, a screen capture's
 * hash. `ref` of a chain row is the id of the row in its own table (`attempts.id` for an `intento`).
 */
export const CHAIN_KINDS = ['intento', 'estatus', 'agente', 'mensaje', 'red', 'captura'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

/**
 * Why a chain breaks at a row: `contenido` its row's columns are not the ones chained (an UPDATE);
 * `falta` its row is gone (a DELETE); `enlace` the chain row itself does not follow the one before (a
 * chain row deleted, altered or inserted); `cola` the chain ends before the head the server keeps
 * says (its last rows deleted).
 */
export const CHAIN_BREAKS = ['contenido', 'falta', 'enlace', 'cola'] as const;
export type ChainBreak = (typeof CHAIN_BREAKS)[number];

/** `GET /api/contestLog/verify?contests_id`: the contest to verify; the active one when left out. */
export const chainVerifyQuerySchema = z.object({ contests_id: idSchema.optional() });
export type ChainVerifyQuery = z.infer<typeof chainVerifyQuerySchema>;

/**
 * What the verification found: `count` rows checked (all of them when `ok`; those before the break
 * when not), and the first bad one: its `seq` (1 is the contest's first row), `kind` and `ref` (null
 * for a `cola` break, where nothing is left to name) and why. `contests_id` null: no contest was
 * named and none is active (nothing to verify: `ok` with 0 rows).
 */
export const chainVerdictSchema = z.object({
  contests_id: rowIntSchema.nullable(),
  ok: z.boolean(),
  count: rowIntSchema,
  first_bad: z
    .object({
      seq: rowIntSchema,
      kind: z.enum(CHAIN_KINDS).nullable(),
      ref: rowIntSchema.nullable(),
      reason: z.enum(CHAIN_BREAKS),
    })
    .optional(),
});
export type ChainVerdict = z.infer<typeof chainVerdictSchema>;

/** A chain row's kind as the verdict names it: «intento 123». */
export const CHAIN_KIND_LABELS: Record<ChainKind, string> = {
  intento: 'intento',
  estatus: 'cambio de estatus',
  agente: 'evento del agente',
  mensaje: 'mensaje',
  red: 'cambio de red',
  captura: 'captura',
};

/** Why the chain breaks, as the verdict says it after the colon. */
export const CHAIN_BREAK_TEXTS: Record<ChainBreak, string> = {
  contenido: 'su contenido no coincide',
  falta: 'el registro ya no existe',
  enlace: 'no enlaza con el registro anterior',
  cola: 'faltan los últimos registros',
};

/** The button of /bitacora that asks for the verification, and its text while it runs. */
export const CHAIN_VERIFY_BUTTON = 'Verificar la cadena';
export const CHAIN_VERIFYING = 'Verificando la cadena…';

/**
 * The verdict in Spanish: «Cadena íntegra: N registros», or «La cadena se rompe en el registro N
 * (intento 123): su contenido no coincide» (N the bad row's `seq`; no parenthesis for a `cola` break).
 */
export function chainVerdictText(verdict: ChainVerdict): string {
  const bad = verdict.first_bad;
  if (verdict.ok || !bad) return `Cadena íntegra: ${verdict.count} registros`;
  const what = bad.kind !== null && bad.ref !== null ? ` (${CHAIN_KIND_LABELS[bad.kind]} ${bad.ref})` : '';
  return `La cadena se rompe en el registro ${bad.seq}${what}: ${CHAIN_BREAK_TEXTS[bad.reason]}`;
}
