import { alsoMatchesText, observedRoutes, type SimilarPrograms } from '@concurso/shared';
import { callApi } from '../api/call-api';
import type { QuestionView } from '../stores/feedback-store';

/** The file a block or a confirmation is about to end: its SHA-256 and the name it is blocked as. */
export interface AlsoMatchesFile {
  /** Null for a program whose file no agent could read: nothing to compare. */
  sha256: string | null;
  /** The observed program's name, or the blocked process a fingerprint belongs to. */
  name: string;
  /** The contest shown (its fingerprints and observed programs); the active one when absent. */
  contestId?: number;
}

/** Said when the check could not be made: the admin decides knowing it was not. */
export const ALSO_MATCHES_UNKNOWN = 'No se pudo comprobar si coincide con otros programas del concurso.';

/**
 * `question` with, after its message, what else the agents would end with that file (agent/README.md,
 * «Copias modificadas»: every identity rule is shown before it applies): «notas también coincide
 * con: g++, c++.» and why, when `found` names other programs; `ALSO_MATCHES_UNKNOWN` when the check
 * failed (`found` is `'error'`); unchanged when nothing else matches (or there was nothing to check).
 */
export function alsoMatchesQuestion(
  question: QuestionView,
  name: string,
  found: Pick<SimilarPrograms, 'programs' | 'total'> | 'error' | null,
): QuestionView {
  if (found === null) return question;
  const extra =
    found === 'error'
      ? ALSO_MATCHES_UNKNOWN
      : found.programs.length === 0
        ? ''
        : `${alsoMatchesText(name, found)} Son el mismo archivo con otro nombre o uno muy parecido: ` +
          'las máquinas que apliquen esta huella también los terminarán.';
  if (extra === '') return question;
  return { ...question, message: question.message ? `${question.message} ${extra}` : extra };
}

/**
 * Asks the server (`GET /api/similarPrograms`, admin) which other programs of the contest `file` also
 * matches, and answers `question` with them (`alsoMatchesQuestion`). Never throws: a failed check adds
 * `ALSO_MATCHES_UNKNOWN` (and is logged), so the admin may still decide.
 */
export async function withAlsoMatches(question: QuestionView, file: AlsoMatchesFile): Promise<QuestionView> {
  if (file.sha256 === null) return question;
  try {
    const answer = await callApi(observedRoutes.similar, {
      query: {
        sha256: file.sha256,
        name: file.name,
        ...(file.contestId === undefined ? {} : { contests_id: file.contestId }),
      },
    });
    return alsoMatchesQuestion(question, file.name, answer.data);
  } catch (error) {
    console.error(`No se pudo comprobar con qué coincide ${file.name}`, error);
    return alsoMatchesQuestion(question, file.name, 'error');
  }
}
