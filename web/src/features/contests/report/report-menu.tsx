import { useState } from 'react';
import { Button, Menu, Portal } from '@chakra-ui/react';
import type { ContestRow } from '@concurso/shared';
import { describeError, isApiRequestError } from '../../../api/api-error';
import { toaster } from '../../../ui/toaster';
import { downloadReport, type ReportFormat } from './download-report';

/** Why the report failed when the server answered but the file could not be written in the browser. */
const REPORT_FILE_FAILED = 'No se pudo generar el archivo.';

/**
 * The 'Reporte' row button of /contests: a small menu, 'PDF' or 'Excel', that downloads the
 * contest's report (`reporte-<calendar>.pdf` / `.xlsx`); the button spins while it is made.
 */
export function ReportMenu({ contest }: { contest: ContestRow }) {
  const [running, setRunning] = useState(false);

  async function run(format: ReportFormat) {
    if (running) return;
    setRunning(true);
    try {
      // Loaded on demand with its writers: jsPDF and exceljs are far larger than the screen.
      await downloadReport(contest.id, format);
    } catch (error) {
      console.error('No se pudo generar el reporte', error);
      // The server's words only for the server's failures; a failure of jsPDF or exceljs is the browser's.
      const reason = isApiRequestError(error) ? describeError(error) : REPORT_FILE_FAILED;
      toaster.create({ type: 'error', title: `No se pudo generar el reporte: ${reason}` });
    } finally {
      setRunning(false);
    }
  }

  return (
    <Menu.Root
      positioning={{ placement: 'bottom-start' }}
      onSelect={(details) => void run(details.value as ReportFormat)}
    >
      <Menu.Trigger asChild>
        <Button size="xs" variant="solid" colorPalette="purple" loading={running}>
          Reporte
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="8rem">
            <Menu.Item value="pdf">PDF</Menu.Item>
            <Menu.Item value="xlsx">Excel</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
