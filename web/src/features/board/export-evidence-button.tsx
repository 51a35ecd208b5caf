import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import { describeError } from '../../api/api-error';
import { getToken } from '../../api/token-storage';
import { useFeedbackStore } from '../../stores/feedback-store';
import { evidencePath, fetchEvidence, receivedText, saveEvidence } from './export-evidence';

/** The button's text at rest. */
const EXPORT_EVIDENCE_LABEL = 'Exportar evidencia';

/**
 * «Exportar evidencia» in a team's history: downloads the team's evidence ZIP (PDF, captures and the
 * SHA-256 manifest; server/src/modules/evidence/README.md). Disabled while it downloads, with the
 * bytes received so far; an error opens the 'Error' dialog with the server's message.
 */
export function ExportEvidenceButton({ teamId }: { teamId: number }) {
  const [received, setReceived] = useState<number | null>(null);
  const download = async () => {
    setReceived(0);
    try {
      saveEvidence(await fetchEvidence(evidencePath(teamId), getToken(), setReceived));
    } catch (error) {
      console.error(`No se pudo exportar la evidencia del equipo ${teamId}`, error);
      useFeedbackStore.getState().showMessage({ title: MESSAGES.error, message: describeError(error) });
    } finally {
      setReceived(null);
    }
  };
  return (
    <Button
      size="sm"
      variant="outline"
      alignSelf="flex-start"
      data-testid="export-evidence"
      loading={received !== null}
      loadingText={received ? `Descargando… ${receivedText(received)}` : 'Preparando la evidencia…'}
      onClick={() => void download()}
    >
      {EXPORT_EVIDENCE_LABEL}
    </Button>
  );
}
