import { z } from 'zod';
import { contestRowSchema, processNameSchema } from './catalogs.js';
import { OBSERVED_PAGE_SIZES, OBSERVED_SORTS } from '../constants.js';
import { idSchema, integerSchema, rowIntSchema } from './common.js';
import { sha256Schema } from './agent.js';

/**
 * Schemas of "What ran in the lab" (docs/design.md sections 3 and 6): the executables the agents
 * saw start on the teams' machines during the active contest, listed for judges and admins at
 * `/procesosObservados`. A machine is never named by more than its team's name.
 */

/**
 * Query string of `GET /api/observedProcesses`: another contest than the active one (`contests_id`),
 * and the page the table shows (the inventory pages, sorts and searches on the server):
 * `page` from 0, `page_size` one of `OBSERVED_PAGE_SIZES`, `sort` one of `OBSERVED_SORTS` with `dir`
 * (ties: by name, then fingerprint), and `q`, a text searched in names, fingerprints and team names
 * ignoring accents and case. Defaults: first page, 25 rows, most machines first, no search.
 */
export const observedProcessesQuerySchema = z.object({
  contests_id: idSchema.optional(),
  page: integerSchema({ min: 0, max: 1_000_000 }).default(0),
  page_size: integerSchema({ min: 1, max: 1_000 })
    .refine((size) => (OBSERVED_PAGE_SIZES as readonly number[]).includes(size), {
      error: `Debe ser ${OBSERVED_PAGE_SIZES.join(', ')}`,
    })
    .default(OBSERVED_PAGE_SIZES[0]),
  sort: z.enum(OBSERVED_SORTS).default('machines'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  q: z.string().trim().max(100).default(''),
});
export type ObservedProcessesQuery = z.infer<typeof observedProcessesQuerySchema>;

/**
 * One executable across the contest's machines, grouped by file name and fingerprint: on how many
 * machines (teams) it started and which teams (names, sorted), when it was first and last seen (ISO
 * 8601, the agents' clocks), how many starts in all, and whether it is already in the contest's
 * blocked set (by name or by a learned fingerprint: `blocked_as` names the blocked process).
 * `copy_of` (null when `blocked_as` is set) names the blocked process whose fingerprint it carries
 * while that fingerprint is only claimed (docs/design.md section 6a: it ends copies on its claimants'
 * machines only, until an admin confirms it or enough teams report it): a copy of a blocked program
 * running under another name where nothing ends it yet.
 */
export const observedProcessRowSchema = z.object({
  name: z.string(),
  sha256: z.string().nullable(),
  machines: rowIntSchema,
  teams: z.array(z.string()),
  first_seen: z.string(),
  last_seen: z.string(),
  count: rowIntSchema,
  blocked_as: z.string().nullable(),
  copy_of: z.string().nullable(),
  /** What ran it when a loader or an interpreter did (`python3`; `viaLabel`), else null or absent. */
  via: z.string().nullable().optional(),
  /**
   * «nuevo» (`NEW_PROGRAM_AFTER_MS`): first seen after the contest's first minutes and run by no other
   * team, neither by its name as the agent compares names nor by its SHA-256.
   */
  is_new: z.boolean().default(false),
  /** The machine it last started on (its host name) while one team ran it; else, or unknown, null. */
  hostname: z.string().nullable().default(null),
  /** The executable's full path at that start, while one team ran it; else, or unknown, null. */
  path: z.string().nullable().default(null),
});
export type ObservedProcessRow = z.infer<typeof observedProcessRowSchema>;

/**
 * `data` of `GET /api/observedProcesses`: the contest (null when none is active: then `rows` is empty
 * and the screen says `MESSAGES.noActiveContest`), the asked page of its rows in the asked order, and
 * `total`, how many rows match the search (all pages).
 */
export const observedProcessesSchema = z.object({
  contest: contestRowSchema.nullable(),
  rows: z.array(observedProcessRowSchema),
  total: rowIntSchema,
});
export type ObservedProcesses = z.infer<typeof observedProcessesSchema>;

/**
 * `POST /api/blockObservedProcess {name, sha256}`: adds the executable to the ACTIVE contest's blocked
 * set (creating the process by name when the catalogue lacks it; names compare case-insensitively) and
 * learns its fingerprint, so a renamed copy is caught too. Agents pick it up at their next config.
 */
export const blockObservedProcessSchema = z.object({
  // The catalogue's own rule (a file name, no folders): the process may be created from it.
  name: processNameSchema,
  sha256: sha256Schema.nullable().optional(),
});
export type BlockObservedProcess = z.infer<typeof blockObservedProcessSchema>;

/** Answer data of `POST /api/blockObservedProcess`: the blocked process as the catalogue has it. */
export const blockObservedProcessResultSchema = z.object({
  processes_id: rowIntSchema,
  name: z.string(),
  contests_id: rowIntSchema,
});
export type BlockObservedProcessResult = z.infer<typeof blockObservedProcessResultSchema>;
