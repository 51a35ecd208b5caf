import { useCallback } from 'react';
import { MESSAGES, observedRoutes, type ContestRow, type ObservedProcessRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { withAlsoMatches } from '../../catalog-screen/also-matches';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { toaster } from '../../ui/toaster';
import { OBSERVED_KEY } from './observed-query';
import { blockQuestion } from './observed-rows';

/** `POST /api/blockObservedProcess` (`observedRoutes.block`, admin). */
const block = (row: ObservedProcessRow) =>
  callApi(observedRoutes.block, { body: { name: row.name, sha256: row.sha256 } });
const observedKey = () => [...OBSERVED_KEY];

/**
 * 'Bloquear' of an inventory row: asks first (`blockQuestion`, with the other programs of the
 * contest the same or a similar file is: `withAlsoMatches`), then adds the executable with
 * its fingerprint to the active contest's blocked set under 'Procesando…' and toasts the server's
 * message; the inventory refetches (its ESTADO turns 'Bloqueado'). A failure opens 'Error' with the
 * server's text.
 */
export function useBlockObserved(): (row: ObservedProcessRow, contest: ContestRow) => Promise<void> {
  const blockProcess = useInvalidatingMutation(block, observedKey);
  return useCallback(
    async (row: ObservedProcessRow, contest: ContestRow) => {
      // «… también coincide con: g++» (docs/design.md section 6a): asked of the server before the question.
      const question = await withAlsoMatches(blockQuestion(row, contest), {
        sha256: row.sha256,
        name: row.name,
      });
      const answer = await confirmedAction({
        question,
        run: () => blockProcess(row),
        what: `bloquear ${row.name}`,
      });
      if (!answer) return;
      toaster.create({
        type: 'success',
        title: answer.message || MESSAGES.saved,
        description: `${answer.data.name} bloqueado en el concurso ${contest.calendar}`,
        duration: 3000,
      });
    },
    [blockProcess],
  );
}
