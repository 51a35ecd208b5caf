import { useState } from 'react';
import { Button, HStack } from '@chakra-ui/react';
import { toaster } from '../toaster';
import { copyToClipboard } from './copy-to-clipboard';
import { buildTsv, type ExportData } from './export-data';
import { printTable } from './export-print';
import { copiedText } from './table-texts';

/** Props of {@link ExportButtons}. */
export interface ExportButtonsProps {
  /** Reads the rows at the moment of the click (search and order applied, every page). */
  getExportData: () => ExportData;
  /** Base name of the downloaded files: 'concursos' gives 'concursos.xlsx' and 'concursos.pdf'. */
  exportName: string;
  /** Title printed above the table in the PDF and the print view. */
  exportTitle: string;
}

type ExportKind = 'excel' | 'pdf' | 'print' | 'copy';

/** 'Excel', 'PDF', 'Imprimir' and 'Copiar' (docs/spec.md section 2: the tables offer export buttons). */
export function ExportButtons({ getExportData, exportName, exportTitle }: ExportButtonsProps) {
  const [running, setRunning] = useState<ExportKind | null>(null);

  async function run(kind: ExportKind) {
    if (running) return;
    setRunning(kind);
    try {
      const data = getExportData();
      if (kind === 'excel') {
        // Loaded on demand: the export libraries are far larger than the rest of the screen.
        const { exportToExcel } = await import('./export-excel');
        await exportToExcel(data, exportName, exportTitle);
      } else if (kind === 'pdf') {
        const { exportToPdf } = await import('./export-pdf');
        await exportToPdf(data, exportName, exportTitle);
      } else if (kind === 'print') {
        if (!printTable(data, exportTitle)) {
          toaster.create({ type: 'warning', title: 'Permita las ventanas emergentes para imprimir.' });
        }
      } else {
        await copyToClipboard(buildTsv(data));
        toaster.create({ type: 'success', title: copiedText(data.rows.length), duration: 2500 });
      }
    } catch (error) {
      console.error('No se pudo exportar la tabla', error);
      toaster.create({ type: 'error', title: 'No se pudo exportar la tabla. Intente de nuevo.' });
    } finally {
      setRunning(null);
    }
  }

  const button = (kind: ExportKind, label: string) => (
    <Button size="sm" variant="outline" loading={running === kind} onClick={() => void run(kind)}>
      {label}
    </Button>
  );

  return (
    <HStack gap="1" role="group" aria-label="Exportar">
      {button('excel', 'Excel')}
      {button('pdf', 'PDF')}
      {button('print', 'Imprimir')}
      {button('copy', 'Copiar')}
    </HStack>
  );
}
