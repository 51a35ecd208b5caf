import type { ExportData } from './export-data';

/**
 * Writes a PDF with the title and the rows as a real table (jspdf-autotable) and downloads it as
 * `{fileName}.pdf`. jspdf is loaded only now, like exceljs.
 */
export async function exportToPdf(data: ExportData, fileName: string, title: string): Promise<void> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const doc = new jsPDF({ orientation: data.headers.length > 4 ? 'landscape' : 'portrait' });
  doc.setFontSize(14);
  doc.text(title, 14, 16);
  autoTable(doc, {
    head: [data.headers],
    body: data.rows,
    startY: 22,
    styles: { fontSize: 9 },
    headStyles: { fillColor: [30, 64, 120] },
  });
  doc.save(`${fileName}.pdf`);
}
