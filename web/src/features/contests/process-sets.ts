import {
  MESSAGES,
  contestsRoutes,
  type BlockedProcessesInput,
  type ContestProcessRow,
  type PermittedProcessesInput,
} from '@concurso/shared';
import { isApiRequestError } from '../../api/api-error';
import { callApi } from '../../api/call-api';
import { listQuery, type ListQuery } from '../../api/queries/list-query';
import { contestProcessesQuery } from './contest-processes-query';

/**
 * A contest's set of catalogue processes that 'Asignar procesos' edits: its blocked processes (docs/spec.md
 * section 2) or its «Programas permitidos» (docs/design.md section 6a "Fingerprints": the IDE, compilers,
 * the browser; a claimed fingerprint matching one's known file is never applied). One dialog for both.
 */
export interface ProcessSet {
  /** The dialog's title. */
  title: string;
  /** What the set means, under the contest's name (none for the blocked set). */
  lead?: string;
  /** The set as it is now (read afresh at each opening). */
  query: (contestId: number) => ListQuery<ContestProcessRow>;
  /** Replaces the set; answers the server's message. */
  save: (body: BlockedProcessesInput) => Promise<{ message: string }>;
  /** The message of a failed save (the server's field text when it refused a process). */
  failure: (error: unknown) => string;
}

/** 'Asignar procesos bloqueados al concurso' (`POST /api/createBlockedProcessForContest`). */
export const BLOCKED_SET: ProcessSet = {
  title: 'Asignar procesos bloqueados al concurso',
  query: contestProcessesQuery,
  save: (body) => callApi(contestsRoutes.replaceBlockedProcesses, { body }),
  // The server's reason when it refused a process (a permitted program), else docs/spec.md's text.
  failure: (error) => fieldReason(error) ?? MESSAGES.processesAssignFailed,
};

/** The server's first text on `processes_id` of a refused save (422), if any. */
function fieldReason(error: unknown): string | undefined {
  return isApiRequestError(error) ? error.fieldErrors?.processes_id?.[0] : undefined;
}

/** A contest's «Programas permitidos» (`GET /api/permittedProcesses/{contestId}`) as a query. */
const permittedProcessesQuery = (contestId: number) =>
  listQuery('contest_processes', contestsRoutes.permittedProcesses, {
    params: { contestId },
    failure: 'No se pudieron cargar los programas permitidos del concurso',
  });

/**
 * Why saving «Programas permitidos» failed: the server's text on `processes_id` (a blocked program
 * cannot be permitted, a process deleted meanwhile), else 'No se pudieron guardar los programas
 * permitidos'.
 */
export function permittedFailure(error: unknown): string {
  return fieldReason(error) ?? 'No se pudieron guardar los programas permitidos';
}

/** «Programas permitidos del concurso» (`POST /api/updatePermittedProcesses`). */
export const PERMITTED_SET: ProcessSet = {
  title: 'Programas permitidos del concurso',
  lead:
    'Programas que el concurso permite (el IDE, los compiladores, el navegador). Una huella reportada ' +
    'que coincida con uno de ellos nunca se aplica y aparece como sospechosa en Procesos › Huellas.',
  query: permittedProcessesQuery,
  save: (body: PermittedProcessesInput) => callApi(contestsRoutes.updatePermittedProcesses, { body }),
  failure: permittedFailure,
};
