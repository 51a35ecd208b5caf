import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IMPORT_MESSAGES,
  importFieldsSchema,
  importsRoutes as api,
  type ImportError,
} from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError, validationError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { boardRows } from '../teams/index.js';
import { contestIdFor, isActiveContest } from '../contests/index.js';
import { previewTeam } from './import-check.js';
import { parseSheet } from './import-parse.js';
import type { ParsedSheet } from './import-rows.js';
import { importSlot } from './import-slot.js';
import { receiveSheet, type ReceivedSheet } from './import-upload.js';
import { checkRows, importRows, undoImport } from './imports.service.js';
import { listTeamImports } from './team-imports.repository.js';
import type { FastifyRequest } from 'fastify';

/** The `contests_id` multipart field, checked by `importFieldsSchema`: 422 on the field otherwise. */
function contestField(fields: Record<string, string>): number {
  const parsed = importFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data.contests_id;
  throw validationError({ contests_id: parsed.error.issues.map((issue) => issue.message) });
}

/**
 * The file and the contest of an import request, the file read into rows (415, 413, 422 on the way;
 * 408 when the upload takes more than `receiveTimeoutMs`).
 */
async function readRequest(
  request: FastifyRequest,
  receiveTimeoutMs: number,
): Promise<{ contestsId: number; parsed: ParsedSheet; sheet: ReceivedSheet }> {
  const { sheet, fields } = await receiveSheet(request, receiveTimeoutMs);
  const contestsId = contestField(fields);
  return { contestsId, parsed: await parseSheet(sheet), sheet };
}

/** The 422 of a refused import: the file's problems by line (`importRejectedSchema`). */
const rejected = (errors: ImportError[]) => new HttpError(422, IMPORT_MESSAGES.rejected, errors);

/**
 * Bulk import of teams and members (`importsRoutes` in shared/src/api/imports.ts):
 * `previewTeamImport` reads and checks a CSV or XLSX file and answers what it would create and its
 * bad rows, writing nothing; `importTeams` does the same checks again in one transaction and creates
 * every team and member, or nothing (422 with the rows' problems). The new teams of the active
 * contest go to the boards after the commit, and every screen's teams and members lists refetch.
 */
const importsRoutes: FastifyPluginAsyncZod<{ receiveTimeoutMs: number }> = async (
  app,
  { receiveTimeoutMs },
) => {
  // One preview or import at a time in this process, body included: 429 for another.
  const slot = importSlot();

  addRoute(app, api.preview, (request) =>
    slot.run(async () => {
      const { contestsId, parsed, sheet } = await readRequest(request, receiveTimeoutMs);
      const em = app.orm.em;
      const contestId = await contestIdFor(em, contestsId);
      const check = parsed.errors.length > 0 ? null : await checkRows(em, contestId, parsed.rows);
      return {
        success: true as const,
        data: {
          teams: check ? check.teams.map(previewTeam) : [],
          errors: check ? check.errors : parsed.errors,
          members: check ? check.members : parsed.rows.length,
          encoding: sheet.encoding,
        },
        message: '',
      };
    }),
  );

  addRoute(app, api.importTeams, (request) =>
    slot.run(async () => {
      const { contestsId, parsed, sheet } = await readRequest(request, receiveTimeoutMs);
      if (parsed.errors.length > 0) throw rejected(parsed.errors);
      const source = { fileName: sheet.fileName, userId: request.staff?.id ?? null };
      const { contestId, outcome } = await transaction(app.orm.em, async (em) => {
        const contestId = await contestIdFor(em, contestsId);
        return { contestId, outcome: await importRows(em, contestId, parsed.rows, source) };
      });
      const { check, teamIds } = outcome;
      if (check.errors.length > 0) throw rejected(check.errors);

      // After the commit: the boards show the active contest's teams only (like teams.routes.ts).
      const em = app.orm.em.fork();
      if (await isActiveContest(em, contestId)) {
        for (const row of await boardRows(em, teamIds)) app.board.teamUpdated(row);
      }
      app.board.catalogChanged('teams');
      app.board.catalogChanged('members');
      const members = check.teams.reduce((sum, team) => sum + team.members.length, 0);
      return {
        success: true as const,
        data: { teams: teamIds.length, members },
        message: IMPORT_MESSAGES.imported(teamIds.length),
      };
    }),
  );

  addRoute(app, api.list, async () => ({
    success: true as const,
    data: await listTeamImports(app.orm.em.fork()),
    message: '',
  }));

  addRoute(app, api.undo, async (request) => {
    const removed = await transaction(app.orm.em, (em) => undoImport(em, request.params.id));
    // After the commit: the teams leave the boards, their agent keys stop working, the lists refetch.
    app.forgetAgentKeys();
    for (const team of removed) app.board.teamRemoved({ id: team.id, levels_id: team.levels_id });
    app.board.catalogChanged('teams');
    app.board.catalogChanged('members');
    return {
      success: true as const,
      data: { teams: removed.length },
      message: IMPORT_MESSAGES.undone(removed.length),
    };
  });
};

export default importsRoutes;
