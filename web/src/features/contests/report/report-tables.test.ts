import { describe, expect, it } from 'vitest';
import {
  attemptsTable,
  barRects,
  linePoints,
  reportFileName,
  reportSheets,
  reportTitle,
  statusChangesTable,
  summaryTable,
  teamsTable,
} from './report-tables';
import { sampleReport } from './report-fixtures.test-support';

describe('contest report tables', () => {
  const report = sampleReport();

  it('names the report and its files after the contest calendar, dates in Spanish order', () => {
    expect(reportTitle(report)).toBe('Reporte del concurso 2026B (21/11/2026)');
    expect(reportFileName(report, 'pdf')).toBe('reporte-2026B.pdf');
    expect(reportFileName(report, 'xlsx')).toBe('reporte-2026B.xlsx');
  });

  it('summarises the contest: teams, blocked, attempts, disqualifications, the automatic threshold', () => {
    expect(summaryTable(report).rows).toEqual([
      ['Concurso', '2026B'],
      ['Fecha', '21/11/2026'],
      ['Equipos', 2],
      ['Equipos bloqueados', 1],
      ['Intentos', 6],
      ['Descalificaciones', 3],
      ['Descalificaciones automáticas', 2],
      ['Desbloqueos', 1],
      ['Descalificar automáticamente al llegar a', '5 intentos'],
      ['Primer intento', '21/11/2026 16:00'],
      ['Último intento (minuto)', '21/11/2026 16:02'],
    ]);
  });

  it('lists the teams, and every block and unblock with who (or automático) and when', () => {
    expect(teamsTable(report)).toEqual({
      headers: ['EQUIPO', 'NIVEL', 'COACH', 'INTEGRANTES', 'INTENTOS', 'ESTADO'],
      rows: [
        ['Alfa', 'Básico', 'Mtra. Laura Méndez', 3, 1, 'Activo'],
        ['Los Punteros', 'Avanzado', 'Dr. Juan Pérez', 2, 5, 'Descalificado'],
      ],
    });
    // The automatic re-block comes after the judge's unblock that allowed it.
    expect(statusChangesTable(report)).toEqual({
      headers: ['EQUIPO', 'NIVEL', 'FECHA', 'ANTES', 'DESPUÉS', 'POR'],
      rows: [
        ['Los Punteros', 'Avanzado', '21/11/2026 16:02', 'Activo', 'Descalificado', 'automático'],
        ['Los Punteros', 'Avanzado', '21/11/2026 16:40', 'Descalificado', 'Activo', 'Juez Ana'],
        ['Los Punteros', 'Avanzado', '21/11/2026 16:41', 'Activo', 'Descalificado', 'automático'],
        ['Alfa', 'Básico', '21/11/2026 17:05', 'Activo', 'Descalificado', 'Juez Ana'],
      ],
    });
    const deleted = { ...report, status_changes: [{ ...report.status_changes[3]!, user: null }] };
    expect(statusChangesTable(deleted).rows[0]![5]).toBe('Usuario eliminado');
  });

  it('makes one sheet per table, the series zero-filled as the server sent it', () => {
    const sheets = reportSheets(report);
    expect(sheets.map((s) => s.name)).toEqual([
      'Resumen',
      'Equipos',
      'Bloqueos y desbloqueos',
      'Intentos por minuto',
      'Procesos',
    ]);
    expect(sheets.every((s) => s.name.length <= 31)).toBe(true);
    expect(attemptsTable(report).rows).toEqual([
      ['21/11/2026 16:00', 2],
      ['21/11/2026 16:01', 0],
      ['21/11/2026 16:02', 4],
    ]);
    expect(attemptsTable({ ...report, bucket_minutes: 15 }).headers[0]).toBe('INICIO (15 MIN)');
    expect(sheets[4]!.data.rows).toEqual([
      ['Discord.exe', 4],
      ['chrome.exe', 2],
    ]);
  });

  it('places the chart marks inside their box, scaled to the largest value', () => {
    const box = { x: 10, y: 20, width: 100, height: 50 };
    expect(linePoints([0, 2, 4], 4, box)).toEqual([
      [10, 70],
      [60, 45],
      [110, 20],
    ]);
    expect(linePoints([3], 3, box)).toEqual([[60, 20]]);
    const bars = barRects([4, 2], box);
    expect(bars.map((b) => b.width)).toEqual([100, 50]);
    expect(bars[1]!.y).toBeGreaterThan(bars[0]!.y + bars[0]!.height);
    expect(bars.every((b) => b.y >= box.y && b.y + b.height <= box.y + box.height)).toBe(true);
  });
});
