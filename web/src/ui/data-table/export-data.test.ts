import { describe, expect, it } from 'vitest';
import { buildPrintHtml, buildTsv, escapeHtml, extractExportData } from './export-data';
import { createHeadlessTable } from './headless-table';
import { CAREER_COLUMNS, CAREER_ROWS } from './table-fixtures';
import { dataTableOptions } from './table-model';

describe('export data', () => {
  it('takes every searched row in the shown order, not only the page, without ACCIONES', () => {
    const table = createHeadlessTable(dataTableOptions(CAREER_ROWS, CAREER_COLUMNS));
    table.setGlobalFilter('ciencias exactas');
    expect(table.getRowModel().rows).toHaveLength(5);

    const data = extractExportData(table);
    expect(data.headers).toEqual(['ID', 'CARRERA', 'DEPARTAMENTO']);
    expect(data.rows).toHaveLength(6);
    expect(data.rows[0]).toEqual([11, 'Diseño', 'Ciencias Exactas']);
    expect(data.rows.map((row) => row[0])).toEqual([11, 9, 7, 5, 3, 1]);
  });

  it('builds tab-separated text with the header first', () => {
    expect(
      buildTsv({
        headers: ['ID', 'NOMBRE'],
        rows: [
          [2, 'Discord.exe'],
          [1, 'con\ttab y\nsalto'],
        ],
      }),
    ).toBe('ID\tNOMBRE\n2\tDiscord.exe\n1\tcon tab y salto');
  });

  it('escapes user text in the print view', () => {
    expect(escapeHtml('<b>"Tom & Jerry\'s"</b>')).toBe(
      '&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;',
    );
    const html = buildPrintHtml('Información de las escuelas', {
      headers: ['ID', 'NOMBRE'],
      rows: [[1, '<script>alert(1)</script>']],
    });
    expect(html).toContain('<h1>Información de las escuelas</h1>');
    expect(html).toContain('<th>ID</th><th>NOMBRE</th>');
    expect(html).toContain('<td>1</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html).not.toContain('<script>');
  });
});
