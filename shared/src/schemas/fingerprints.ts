import { z } from 'zod';
import { blockedProcessesInputSchema, contestRowSchema } from './catalogs.js';
import { idSchema, rowIntSchema } from './common.js';

/**
 * Schemas of the fingerprints screen (docs/design.md section 6a "Fingerprints"): every SHA-256
 * claimed for one blocked process in one contest, who claimed it and whether it applies to every
 * machine. A fingerprint an agent reports is a claim: it applies at once to the reporting team's own
 * machines; to every machine of the contest when an admin confirms it or when agents of at least
 * `quorum` different teams reported it.
 */

/** Query string of `GET /api/processFingerprints/{id}`: another contest than the active one. */
export const processFingerprintsQuerySchema = z.object({ contests_id: idSchema.optional() });
export type ProcessFingerprintsQuery = z.infer<typeof processFingerprintsQuerySchema>;

/** A team that claimed a fingerprint and when (ISO 8601, the server's clock). */
export const fingerprintClaimantSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  at: z.string(),
});
export type FingerprintClaimant = z.infer<typeof fingerprintClaimantSchema>;

/**
 * One fingerprint of the process in the contest: its id and hash, whether an admin confirmed it, how
 * many different teams claimed it, the first and the last of them (null when no team did: an admin's
 * "Bloquear" of a program nobody reported with a fingerprint, or one kept from before claims existed),
 * when it was recorded, and `applies_to_all`: confirmed, or claimed by at least `quorum` teams, and
 * not suspect.
 */
export const processFingerprintRowSchema = z.object({
  id: rowIntSchema,
  sha256: z.string(),
  confirmed: z.boolean(),
  teams: rowIntSchema,
  first_team: fingerprintClaimantSchema.nullable(),
  last_team: fingerprintClaimantSchema.nullable(),
  created_at: z.string(),
  applies_to_all: z.boolean(),
  /** Every team that claimed it, first first. */
  claimants: z.array(fingerprintClaimantSchema).default([]),
  /**
   * The permitted program («Programas permitidos») whose known file it matches, or null: a suspect
   * claim applies to no machine, confirmed or not (docs/design.md section 6a).
   */
  suspect: z.string().nullable().default(null),
  /**
   * Its claimants that, two or more together, also claimed another fingerprint of the contest: claims
   * made by the same teams over and over (empty when none).
   */
  repeated_by: z.array(z.string()).default([]),
});
export type ProcessFingerprintRow = z.infer<typeof processFingerprintRowSchema>;

/**
 * A hash an admin removed, denied in its contest under every process name until an admin confirms it
 * again (docs/design.md section 6a; «Denegada» in Procesos › Huellas): the process it was removed from
 * (null once deleted), the admin's name (null once deleted) and when (ISO 8601).
 */
export const deniedFingerprintRowSchema = z.object({
  id: rowIntSchema,
  sha256: z.string(),
  process: z.object({ id: rowIntSchema, name: z.string() }).nullable(),
  denied_by: z.string().nullable(),
  denied_at: z.string(),
});
export type DeniedFingerprintRow = z.infer<typeof deniedFingerprintRowSchema>;

/**
 * `data` of `GET /api/processFingerprints/{id}`: the process, the contest (null when none is active:
 * then `rows` and `denied` are empty), the quorum in force, the rows (confirmed first, then most
 * teams, then the newest) and the hashes denied in the contest (every process's: a denial holds under
 * every name), newest first.
 */
export const processFingerprintsSchema = z.object({
  process: z.object({ id: rowIntSchema, name: z.string() }),
  contest: contestRowSchema.nullable(),
  quorum: rowIntSchema,
  rows: z.array(processFingerprintRowSchema),
  denied: z.array(deniedFingerprintRowSchema).default([]),
});
export type ProcessFingerprints = z.infer<typeof processFingerprintsSchema>;

/**
 * `POST /api/updatePermittedProcesses {contests_id, processes_id[]}`: replaces a contest's «Programas
 * permitidos» (docs/design.md section 6a "Fingerprints"): catalogue processes the contest allows (the IDE,
 * compilers, the browser); a claimed fingerprint that matches one's known file is ignored and shown as
 * suspect. Same shape and bounds as the blocked set's input.
 */
export const permittedProcessesInputSchema = blockedProcessesInputSchema;
export type PermittedProcessesInput = z.infer<typeof permittedProcessesInputSchema>;

/** The 422 text on `processes_id` when a permitted program is also blocked in the contest: «…: chrome.exe». */
export const permittedBlockedConflict = (names: readonly string[]): string =>
  `Un programa bloqueado en el concurso no puede estar permitido: ${names.join(', ')}.`;

/** The 422 text on `processes_id` when a blocked program is also permitted in the contest: «…: code.exe». */
export const blockedPermittedConflict = (names: readonly string[]): string =>
  `Un programa permitido en el concurso no puede estar bloqueado: ${names.join(', ')}.`;
