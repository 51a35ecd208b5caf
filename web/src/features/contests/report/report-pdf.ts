import type { jsPDF as JsPdf } from 'jspdf';
import type { ContestReport } from '@concurso/shared';
import {
  STATUS_CHANGES_TITLE,
  barRects,
  reportTime,
  linePoints,
  reportTitle,
  statusChangesTable,
  summaryTable,
  teamsTable,
  type ChartBox,
} from './report-tables';

/** Left margin and usable width of an A4 portrait page, mm. */
const MARGIN = 14;
const WIDTH = 210 - 2 * MARGIN;
/** Height of a chart's plot, mm. */
const CHART_HEIGHT = 50;
/** The app's table header blue (the data table exports use it too). */
const BLUE: [number, number, number] = [30, 64, 120];
const ORANGE: [number, number, number] = [221, 107, 32];

/** Where the last table drawn by jspdf-autotable ended (mm), or `fallback`. */
const afterTable = (doc: JsPdf, fallback: number): number =>
  (doc as JsPdf & { lastAutoTable?: { finalY: number } }).lastAutoTable?.finalY ?? fallback;

/** A section heading at `y`, on a new page when fewer than `needed` mm are left; answers where to go on. */
function heading(doc: JsPdf, text: string, y: number, needed = 30): number {
  let top = y;
  if (top + needed > doc.internal.pageSize.getHeight() - MARGIN) {
    doc.addPage();
    top = 20;
  }
  doc.setFontSize(12);
  doc.setTextColor(0);
  doc.text(text, MARGIN, top);
  return top + 4;
}

/** The attempts per minute as a line in `box`, with its axes and its largest value (jsPDF primitives). */
function drawAttemptsChart(doc: JsPdf, report: ContestReport, box: ChartBox): void {
  const values = report.attempts_per_minute.map((p) => p.attempts);
  const max = Math.max(1, ...values);
  doc.setDrawColor(150);
  doc.setLineWidth(0.2);
  doc.line(box.x, box.y, box.x, box.y + box.height);
  doc.line(box.x, box.y + box.height, box.x + box.width, box.y + box.height);
  doc.setFontSize(7);
  doc.setTextColor(90);
  doc.text(String(max), box.x - 1, box.y + 2, { align: 'right' });
  doc.text('0', box.x - 1, box.y + box.height, { align: 'right' });
  const series = report.attempts_per_minute;
  if (series.length > 0) {
    doc.text(reportTime(series[0]!.minute), box.x, box.y + box.height + 4);
    doc.text(reportTime(series.at(-1)!.minute), box.x + box.width, box.y + box.height + 4, {
      align: 'right',
    });
  }
  const points = linePoints(values, max, box);
  doc.setDrawColor(...BLUE);
  doc.setLineWidth(0.5);
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i - 1]!;
    const [x2, y2] = points[i]!;
    doc.line(x1, y1, x2, y2);
  }
  if (points.length === 1) doc.circle(points[0]![0], points[0]![1], 0.8, 'F');
}

/** The most attempted processes as horizontal bars in `box`, each with its name and count. */
function drawProcessesChart(doc: JsPdf, report: ContestReport, box: ChartBox): void {
  const labelWidth = 45;
  const plot = { ...box, x: box.x + labelWidth, width: box.width - labelWidth - 12 };
  const rects = barRects(
    report.top_processes.map((p) => p.attempts),
    plot,
  );
  doc.setFontSize(8);
  doc.setTextColor(40);
  doc.setFillColor(...ORANGE);
  rects.forEach((rect, index) => {
    const row = report.top_processes[index]!;
    const middle = rect.y + rect.height / 2 + 1;
    doc.text(doc.splitTextToSize(row.process, labelWidth - 2)[0] as string, box.x, middle);
    doc.rect(rect.x, rect.y, Math.max(0.3, rect.width), rect.height, 'F');
    doc.text(String(row.attempts), rect.x + rect.width + 1.5, middle);
  });
}

/** 'Página N de M' at the foot of every page, once the pages are all there. */
function numberPages(doc: JsPdf): void {
  const pages = doc.getNumberOfPages();
  const { width, height } = {
    width: doc.internal.pageSize.getWidth(),
    height: doc.internal.pageSize.getHeight(),
  };
  doc.setFontSize(8);
  doc.setTextColor(90);
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.text(`Página ${page} de ${pages}`, width - MARGIN, height - 8, { align: 'right' });
  }
}

/**
 * The report as a PDF: the title with the contest's calendar and date, the summary, the two
 * charts drawn with jsPDF's primitives from the same data as /home's panel, the per-team table and
 * every block and unblock with who ('automático' for the automatic block) and when, and page numbers.
 * jsPDF and jspdf-autotable are loaded only now. Answers the document (the caller saves it).
 */
export async function buildReportPdf(report: ContestReport, now = new Date()): Promise<JsPdf> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const table = (data: { headers: string[]; rows: Array<Array<string | number>> }, startY: number) => {
    autoTable(doc, {
      head: [data.headers],
      body: data.rows,
      startY,
      margin: { left: MARGIN, right: MARGIN },
      styles: { fontSize: 9 },
      headStyles: { fillColor: BLUE },
    });
    return afterTable(doc, startY) + 10;
  };

  doc.setFontSize(16);
  doc.text(reportTitle(report), MARGIN, 18);
  doc.setFontSize(9);
  doc.setTextColor(90);
  doc.text(`Generado el ${reportTime(now.toISOString())}`, MARGIN, 24);

  let y = heading(doc, 'Resumen', 34);
  y = table(summaryTable(report), y);

  const title =
    report.bucket_minutes === 1 ? 'Intentos por minuto' : `Intentos cada ${report.bucket_minutes} minutos`;
  y = heading(doc, title, y, CHART_HEIGHT + 16);
  if (report.attempts_per_minute.length === 0) {
    doc.setFontSize(9);
    doc.text('Todavía no hay intentos.', MARGIN, y + 4);
    y += 12;
  } else {
    drawAttemptsChart(doc, report, { x: MARGIN + 8, y: y + 2, width: WIDTH - 10, height: CHART_HEIGHT });
    y += CHART_HEIGHT + 16;
  }

  const processesHeight = Math.max(12, report.top_processes.length * 7);
  y = heading(doc, 'Procesos más intentados', y, processesHeight + 10);
  if (report.top_processes.length === 0) {
    doc.setFontSize(9);
    doc.text('Todavía no hay intentos.', MARGIN, y + 4);
    y += 12;
  } else {
    drawProcessesChart(doc, report, { x: MARGIN, y: y + 2, width: WIDTH, height: processesHeight });
    y += processesHeight + 10;
  }
  doc.setTextColor(0);

  y = heading(doc, 'Equipos', y);
  y = table(teamsTable(report), y);
  y = heading(doc, STATUS_CHANGES_TITLE, y);
  const changes = statusChangesTable(report);
  if (changes.rows.length === 0) {
    doc.setFontSize(9);
    doc.text('Ningún equipo fue bloqueado.', MARGIN, y + 4);
  } else {
    table(changes, y);
  }
  numberPages(doc);
  return doc;
}
