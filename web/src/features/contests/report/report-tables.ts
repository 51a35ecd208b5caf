import { TEAM_STATUS, statusChangeAuthor, type ContestReport } from '@concurso/shared';
import type { ExportCell, ExportData } from '../../../ui/data-table/export-data';
import type { WorkbookSheet } from '../../../ui/data-table/export-excel';
import { formatDate, formatDateTime } from '../../../ui/date-time';

/*
 * The contest report's content ('Reporte'), as plain tables: what the PDF prints and what the
 * XLSX's sheets hold, built from `GET /api/contestReport/{contestId}`. Pure (no jsPDF, no exceljs), so
 * it is unit-tested as is.
 */

/** An ISO time as the report prints it: 'dd/mm/aaaa hh:mm' in the browser's time zone. */
export function reportTime(iso: string): string {
  return formatDateTime(iso, { seconds: false });
}

/** The report's title: 'Reporte del concurso 2026B (21/11/2026)'. */
export function reportTitle(report: Pick<ContestReport, 'contest'>): string {
  return `Reporte del concurso ${report.contest.calendar} (${formatDate(report.contest.date)})`;
}

/** The downloaded file's name: `reporte-<calendar>.pdf` / `.xlsx` (characters a file name refuses become '-'). */
export function reportFileName(report: Pick<ContestReport, 'contest'>, extension: 'pdf' | 'xlsx'): string {
  const calendar = report.contest.calendar.replace(/[\\/:*?"<>|\s]+/g, '-') || String(report.contest.id);
  return `reporte-${calendar}.${extension}`;
}

/** 'Resumen': one row per figure (name, value). */
export function summaryTable(report: ContestReport): ExportData {
  const blocks = report.status_changes.filter((row) => row.to.id === TEAM_STATUS.disqualified);
  const rows: ExportCell[][] = [
    ['Concurso', report.contest.calendar],
    ['Fecha', formatDate(report.contest.date)],
    ['Equipos', report.teams.length],
    ['Equipos bloqueados', report.teams_blocked],
    ['Intentos', report.attempts],
    ['Descalificaciones', blocks.length],
    ['Descalificaciones automáticas', blocks.filter((row) => row.automatic).length],
    ['Desbloqueos', report.status_changes.length - blocks.length],
    [
      'Descalificar automáticamente al llegar a',
      report.contest.max_attempts === null ? 'No' : `${report.contest.max_attempts} intentos`,
    ],
  ];
  const series = report.attempts_per_minute;
  if (series.length > 0) {
    rows.push(['Primer intento', reportTime(series[0]!.minute)]);
    rows.push(['Último intento (minuto)', reportTime(series.at(-1)!.minute)]);
  }
  return { headers: ['DATO', 'VALOR'], rows };
}

/** 'Equipos': every team, by level then name. */
export function teamsTable(report: ContestReport): ExportData {
  return {
    headers: ['EQUIPO', 'NIVEL', 'COACH', 'INTEGRANTES', 'INTENTOS', 'ESTADO'],
    rows: report.teams.map((team) => [
      team.name,
      team.level,
      team.coach,
      team.members,
      team.number_attempts,
      team.status,
    ]),
  };
}

/** The section and sheet of the blocks and unblocks. */
export const STATUS_CHANGES_TITLE = 'Bloqueos y desbloqueos';

/**
 * 'Bloqueos y desbloqueos': every block and unblock, oldest first, with the status before and after, who
 * ('automático' for the automatic block) and when; with the unblocks, an automatic re-block follows the
 * unblock that allowed it.
 */
export function statusChangesTable(report: ContestReport): ExportData {
  return {
    // ANTES and DESPUÉS rather than 'Activo → Descalificado': jsPDF's built-in fonts have no arrow.
    headers: ['EQUIPO', 'NIVEL', 'FECHA', 'ANTES', 'DESPUÉS', 'POR'],
    rows: report.status_changes.map((row) => [
      row.team,
      row.level,
      reportTime(row.at),
      row.from.status,
      row.to.status,
      // Who: the judge, 'automático' or 'Usuario eliminado', as the logs say it.
      statusChangeAuthor(row),
    ]),
  };
}

/** 'Intentos por minuto': each point of the series (its start) with its attempts, zeros included. */
export function attemptsTable(report: ContestReport): ExportData {
  return {
    headers: [report.bucket_minutes === 1 ? 'MINUTO' : `INICIO (${report.bucket_minutes} MIN)`, 'INTENTOS'],
    rows: report.attempts_per_minute.map((point) => [reportTime(point.minute), point.attempts]),
  };
}

/** 'Procesos': the most attempted processes, most first. */
function processesTable(report: ContestReport): ExportData {
  return {
    headers: ['PROCESO', 'INTENTOS'],
    rows: report.top_processes.map((row) => [row.process, row.attempts]),
  };
}

/** The XLSX's sheets, one per table: Resumen, Equipos, Bloqueos y desbloqueos, Intentos por minuto, Procesos. */
export function reportSheets(report: ContestReport): WorkbookSheet[] {
  return [
    { name: 'Resumen', data: summaryTable(report) },
    { name: 'Equipos', data: teamsTable(report) },
    { name: STATUS_CHANGES_TITLE, data: statusChangesTable(report) },
    { name: 'Intentos por minuto', data: attemptsTable(report) },
    { name: 'Procesos', data: processesTable(report) },
  ];
}

/** A rectangle of the PDF page, in mm. */
export interface ChartBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The attempts line as page points inside `box` (mm): x spreads the points evenly, y grows upwards
 * from the box's bottom to `max` at its top. A single point sits in the middle.
 */
export function linePoints(values: readonly number[], max: number, box: ChartBox): Array<[number, number]> {
  const top = Math.max(1, max);
  const step = values.length > 1 ? box.width / (values.length - 1) : 0;
  return values.map((value, index) => [
    values.length > 1 ? box.x + index * step : box.x + box.width / 2,
    box.y + box.height - (value / top) * box.height,
  ]);
}

/** The processes' bars inside `box` (mm): one row each, width proportional to the most attempted. */
export function barRects(values: readonly number[], box: ChartBox): ChartBox[] {
  const max = Math.max(1, ...values);
  const row = values.length > 0 ? box.height / values.length : 0;
  return values.map((value, index) => ({
    x: box.x,
    y: box.y + index * row + row * 0.15,
    width: (value / max) * box.width,
    height: row * 0.7,
  }));
}
