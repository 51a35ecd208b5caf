import type { Table } from '@tanstack/react-table';
import { guardFormula } from './formula-guard';
import { cellText, exportableRows } from './table-model';

/** A cell as exported: numbers stay numbers (Excel), anything else is text. */
export type ExportCell = string | number;

/** What every export writes: the header row and the data rows. */
export interface ExportData {
  headers: string[];
  rows: ExportCell[][];
}

/**
 * The table as the exports see it (Excel, PDF, Imprimir, Copiar): the visible data columns (ACCIONES and
 * any other column without a value is left out) and every row the search left, in the shown order,
 * regardless of the page.
 */
export function extractExportData<T>(table: Table<T>): ExportData {
  const columns = table.getVisibleLeafColumns().filter((column) => column.accessorFn !== undefined);
  const headers = columns.map((column) => {
    const { header } = column.columnDef;
    return typeof header === 'string' ? header : column.id;
  });
  const rows = exportableRows(table).map((row) =>
    columns.map((column): ExportCell => {
      const value: unknown = row.getValue(column.id);
      return typeof value === 'number' ? value : cellText(value);
    }),
  );
  return { headers, rows };
}

/** One TSV cell: tabs and line breaks would split the cell, so they become spaces. */
function tsvCell(value: ExportCell): string {
  return String(value).replace(/[\t\r\n]+/g, ' ');
}

/**
 * Tab-separated text, header first, one line per row (what 'Copiar' puts on the clipboard), each data
 * cell through `guardFormula` (pasted in a spreadsheet, a name starting with `=` stays text).
 */
export function buildTsv({ headers, rows }: ExportData): string {
  return [headers, ...rows.map((row) => row.map(guardFormula))]
    .map((line) => line.map(tsvCell).join('\t'))
    .join('\n');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML: catalogue names are user input. */
export function escapeHtml(value: ExportCell): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** A complete HTML page with the title and a plain table, for 'Imprimir'. */
export function buildPrintHtml(title: string, { headers, rows }: ExportData): string {
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 24px; color: #111; }
  h1 { font-size: 18px; margin: 0 0 12px; }
  table { border-collapse: collapse; width: 100%; font-size: 12px; }
  th, td { border: 1px solid #999; padding: 4px 8px; text-align: left; }
  th { background: #eee; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</body>
</html>`;
}
