import { z } from 'zod';
import { okEnvelope } from '../schemas/api.js';
import { idParamsSchema } from '../schemas/common.js';
import {
  importUndoneSchema,
  teamImportRowSchema,
  importFieldsSchema,
  importPreviewSchema,
  importRejectedSchema,
  importResultSchema,
} from '../schemas/imports.js';
import { ADMIN_ACCESS } from './access.js';
import { defineRoute } from './route.js';

const tag = 'importación';

/**
 * Bulk import of teams and members: a CSV or XLSX registration file, one row per member
 * (equipo, nivel, coach, código, nombre, semestre, carrera), sent as `multipart/form-data` with the
 * file in `file` and the text field `contests_id` (the contest the teams join). Admins only. The file
 * is checked by name and content (`.xlsx`: a zip, `PK\x03\x04`; `.csv`: text without NUL, read as UTF-8
 * when it is, else as Windows-1252): 415 otherwise, 413 over `IMPORT_MAX_BYTES`; 422 for a missing or unknown `contests_id`.
 * Bounds: an XLSX whose zip has more than `IMPORT_XLSX_MAX_ENTRIES` entries or declares more
 * than `IMPORT_XLSX_MAX_UNZIPPED_BYTES` uncompressed is 413 before anything is inflated, one whose entry
 * inflates beyond its declared size 415; reading stops at the row limit (the too-many-rows error); one
 * preview or import at a time per server process, another gets 429 (`IMPORT_MESSAGES.busy`); an upload
 * still arriving after `IMPORT_RECEIVE_TIMEOUT_MS` has its connection closed.
 */
export const importsRoutes = {
  /**
   * Reads and checks the file and answers what the import would create and every bad row by line
   * (`{ teams, errors, members }`). Writes nothing.
   */
  preview: defineRoute({
    method: 'POST',
    path: '/api/previewTeamImport',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Vista previa de la importación de equipos e integrantes',
    multipart: importFieldsSchema,
    reply: okEnvelope(importPreviewSchema),
    replies: { 422: importRejectedSchema },
  }),
  /**
   * Reads and checks the file again (never trusting a preview) and creates every team and member in
   * one transaction: `{ teams, members }` and 'Se importaron N equipos.'. Any bad row: 422 with the
   * preview's `errors` (by line) and nothing written. The new teams go to the boards when the
   * contest is the active one.
   */
  importTeams: defineRoute({
    method: 'POST',
    path: '/api/importTeams',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Importa equipos e integrantes de un archivo',
    multipart: importFieldsSchema,
    reply: okEnvelope(importResultSchema),
    replies: { 422: importRejectedSchema },
  }),
  /** `GET /api/getTeamImports`: every import, newest first (`teamImportRowSchema`). */
  list: defineRoute({
    method: 'GET',
    path: '/api/getTeamImports',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Importaciones de equipos',
    reply: okEnvelope(z.array(teamImportRowSchema)),
  }),
  /**
   * `POST /api/undoTeamImport/{id}`: deletes the import's teams still there, with their
   * members, in one transaction, while none has an attempt; they leave the boards. 404 unknown import;
   * 409 already undone (`IMPORT_MESSAGES.alreadyUndone`) or a team with attempts (`undoHasAttempts`).
   */
  undo: defineRoute({
    method: 'POST',
    path: '/api/undoTeamImport/:id',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Deshace una importación de equipos',
    params: idParamsSchema,
    reply: okEnvelope(importUndoneSchema),
  }),
} as const;
