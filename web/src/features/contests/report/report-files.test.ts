import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { buildReportPdf } from './report-pdf';
import { buildReportXlsx } from './report-xlsx';
import { sampleReport } from './report-fixtures.test-support';

describe('contest report files', () => {
  const report = sampleReport();

  it('writes an .xlsx with one sheet per table that reads back with its rows', async () => {
    const bytes = await buildReportXlsx(report);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Resumen',
      'Equipos',
      'Bloqueos y desbloqueos',
      'Intentos por minuto',
      'Procesos',
    ]);
    const teams = workbook.getWorksheet('Equipos')!;
    expect(teams.getRow(1).values).toEqual([
      undefined,
      'EQUIPO',
      'NIVEL',
      'COACH',
      'INTEGRANTES',
      'INTENTOS',
      'ESTADO',
    ]);
    expect(teams.getRow(3).getCell(1).value).toBe('Los Punteros');
    // Numbers stay numbers (Excel sums them).
    expect(teams.getRow(3).getCell(5).value).toBe(5);
    const changes = workbook.getWorksheet('Bloqueos y desbloqueos')!;
    expect(changes.getRow(2).getCell(6).value).toBe('automático');
    expect([changes.getRow(3).getCell(4).value, changes.getRow(3).getCell(5).value]).toEqual([
      'Descalificado',
      'Activo',
    ]);
    expect(workbook.getWorksheet('Intentos por minuto')!.rowCount).toBe(4);
  });

  it('writes a PDF with the title, the tables, the blocks and unblocks, and page numbers', async () => {
    const doc = await buildReportPdf(report, new Date(2026, 10, 22, 10, 30));
    const text = doc.output();
    expect(text.startsWith('%PDF-')).toBe(true);
    for (const expected of [
      'Reporte del concurso 2026B \\(21/11/2026\\)',
      'Generado el 22/11/2026 10:30',
      'Intentos por minuto',
      'Procesos m',
      'Los Punteros',
      'Mtra. Laura M',
      'Juez Ana',
      'autom',
      'Discord.exe',
      'Bloqueos y desbloqueos',
    ]) {
      expect(text).toContain(expected);
    }
    // 'Página N de M' on every page.
    const pages = doc.getNumberOfPages();
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`gina ${page} de ${pages}`);
  });
});
