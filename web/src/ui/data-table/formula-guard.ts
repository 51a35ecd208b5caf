import type { ExportCell } from './export-data';

/**
 * What a spreadsheet reads as the start of a formula when a text cell begins with it (OWASP "CSV
 * injection"): `=`, `+`, `-`, `@`, and a tab or carriage return before them.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as the exports and 'Copiar' hand it to a spreadsheet: a text that would start a
 * formula (a team named `=HYPERLINK("http://…","clic")`, `+cmd|' /C calc'!A0`, `@SUM(1)`) gets a
 * leading `'`, so Excel or LibreOffice shows it as text instead of running it. Numbers stay numbers
 * (a negative count is a number, not a formula); any other text is left as it is.
 */
export function guardFormula(cell: ExportCell): ExportCell {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}
