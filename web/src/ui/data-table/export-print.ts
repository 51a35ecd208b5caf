import { buildPrintHtml, type ExportData } from './export-data';

/**
 * 'Imprimir': opens a new window with the title and a plain table and starts the browser's print.
 * Returns false when the browser blocked the window.
 */
export function printTable(data: ExportData, title: string): boolean {
  const printWindow = window.open('', '_blank');
  if (!printWindow) return false;
  printWindow.document.open();
  printWindow.document.write(buildPrintHtml(title, data));
  printWindow.document.close();
  printWindow.focus();
  // After layout, or the print preview can come out empty.
  printWindow.setTimeout(() => printWindow.print(), 100);
  return true;
}
