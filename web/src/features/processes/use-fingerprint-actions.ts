import { useCallback } from 'react';
import { MESSAGES, processesRoutes, type ContestRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { withAlsoMatches } from '../../catalog-screen/also-matches';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { toaster } from '../../ui/toaster';
import {
  confirmDeniedQuestion,
  confirmQuestion,
  deleteQuestion,
  type DeniedTableRow,
  type FingerprintTableRow,
} from './fingerprint-rows';
import { FINGERPRINTS_KEY } from './fingerprints-query';

/** `POST /api/confirmFingerprint/{id}` and `POST /api/deleteFingerprint/{id}` (admin). */
const confirm = (id: number) => callApi(processesRoutes.confirmFingerprint, { params: { id } });
const remove = (id: number) => callApi(processesRoutes.deleteFingerprint, { params: { id } });
/** `POST /api/confirmDeniedFingerprint/{id}` (admin, docs/design.md section 6a): lifts a denial. */
const confirmDenied = (id: number) => callApi(processesRoutes.confirmDeniedFingerprint, { params: { id } });
const fingerprintsKey = () => [...FINGERPRINTS_KEY];

/**
 * 'Confirmar' and 'Eliminar' of a fingerprint row, and 'Confirmar' of a denied hash
 * (`onConfirmDenied`, docs/design.md section 6a): each asks first (a confirmation with the other programs of
 * the contest the same or a similar file is: `withAlsoMatches`), runs under 'Procesando…' and toasts the
 * server's message; the list refetches. A failure opens 'Error' with the server's text (404 when
 * another admin removed it meanwhile).
 */
export function useFingerprintActions(processName: string, contest: ContestRow | null) {
  const confirmOne = useInvalidatingMutation(confirm, fingerprintsKey);
  const removeOne = useInvalidatingMutation(remove, fingerprintsKey);
  const confirmDeniedOne = useInvalidatingMutation(confirmDenied, fingerprintsKey);
  const onConfirm = useCallback(
    async (row: FingerprintTableRow) => {
      if (!contest) return;
      // «… también coincide con: g++» (docs/design.md section 6a): asked of the server before the question.
      const question = await withAlsoMatches(confirmQuestion(row, processName, contest), {
        sha256: row.sha256,
        name: processName,
        contestId: contest.id,
      });
      const answer = await confirmedAction({
        question,
        run: () => confirmOne(row.id),
        what: `confirmar la huella ${row.sha256}`,
      });
      if (answer)
        toaster.create({ type: 'success', title: answer.message || MESSAGES.saved, duration: 3000 });
    },
    [confirmOne, contest, processName],
  );
  const onDelete = useCallback(
    async (row: FingerprintTableRow) => {
      const answer = await confirmedAction({
        question: deleteQuestion(row, processName),
        run: () => removeOne(row.id),
        what: `eliminar la huella ${row.sha256}`,
      });
      if (answer)
        toaster.create({ type: 'success', title: answer.message || MESSAGES.deleted, duration: 3000 });
    },
    [removeOne, processName],
  );
  const onConfirmDenied = useCallback(
    async (row: DeniedTableRow) => {
      if (!contest) return;
      const question = await withAlsoMatches(confirmDeniedQuestion(row, contest), {
        sha256: row.sha256,
        name: row.process === '—' ? row.fingerprint : row.process,
        contestId: contest.id,
      });
      const answer = await confirmedAction({
        question,
        run: () => confirmDeniedOne(row.id),
        what: `confirmar la huella denegada ${row.sha256}`,
      });
      if (answer)
        toaster.create({ type: 'success', title: answer.message || MESSAGES.saved, duration: 3000 });
    },
    [confirmDeniedOne, contest],
  );
  return { onConfirm, onDelete, onConfirmDenied };
}
