import { useCallback } from 'react';
import { COMMON_FORBIDDEN_PROCESSES, MESSAGES, processesRoutes } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import { useFeedbackStore } from '../../stores/feedback-store';
import { commonProcessesReport } from './common-processes-report';

/** `POST /api/addCommonProcesses` (`processesRoutes.addCommon`); the processes list refetches after it. */
const addCommon = () => callApi(processesRoutes.addCommon);
const processesKey = () => catalogListKey('processes');

/**
 * 'Agregar catálogo común': after a confirmation, adds the ready list of commonly forbidden executables
 * (browsers, chat, remote desktop, recorders, AI assistants), skipping names already registered, and
 * reports 'Se agregaron N procesos (M ya existían).'.
 */
export function useAddCommonProcesses(): () => Promise<void> {
  const addCommonProcesses = useInvalidatingMutation(addCommon, processesKey);
  return useCallback(async () => {
    const answer = await confirmedAction({
      question: {
        title: '¿Agregar el catálogo común de procesos?',
        message: `Se registrarán ${COMMON_FORBIDDEN_PROCESSES.length} ejecutables que suelen prohibirse (navegadores, chat, escritorio remoto, grabadores de pantalla y asistentes de IA). Los que ya existan se omitirán.`,
        confirmLabel: 'Sí, agregar',
        cancelLabel: 'Cancelar',
      },
      run: () => addCommonProcesses(),
      what: 'agregar el catálogo común',
    });
    if (!answer) return;
    useFeedbackStore.getState().showMessage({
      title: MESSAGES.correct,
      message: commonProcessesReport(answer.data.added, answer.data.skipped),
    });
  }, [addCommonProcesses]);
}
