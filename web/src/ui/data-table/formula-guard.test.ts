import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildTsv } from './export-data';
import { writeWorkbook } from './export-excel';
import { guardFormula } from './formula-guard';

/** The probe's team names and OWASP's other formula starts. */
const FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1)', '-2+3', '\t=1+1', '\r=1+1'];

describe('formula guard (OWASP CSV injection)', () => {
  it('puts a quote before a text that would start a formula, and leaves the rest alone', () => {
    for (const text of FORMULAS) expect(guardFormula(text)).toBe(`'${text}`);
    for (const text of ['Los Lambdas', 'Equipo = 3', 'a@b.mx', '', "'ya citado"]) {
      expect(guardFormula(text)).toBe(text);
    }
    // Numbers stay numbers, negative ones too: a count is no formula.
    expect(guardFormula(-5)).toBe(-5);
    expect(guardFormula(0)).toBe(0);
  });

  it("guards 'Copiar': every data cell, never the headers", () => {
    const tsv = buildTsv({
      headers: ['ID', 'EQUIPO'],
      rows: [
        [-1, FORMULAS[0]!],
        [2, '@SUM(1)'],
      ],
    });
    expect(tsv.split('\n')).toEqual(['ID\tEQUIPO', `-1\t'=HYPERLINK("http://x","y")`, "2\t'@SUM(1)"]);
  });

  it('writes guarded text cells into the .xlsx, with no formula in it', async () => {
    const bytes = await writeWorkbook([
      { name: 'Equipos', data: { headers: ['ID', 'EQUIPO'], rows: FORMULAS.map((name, i) => [-i, name]) } },
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    const sheet = workbook.getWorksheet('Equipos')!;
    const cells = FORMULAS.map((_, i) => sheet.getRow(i + 2));
    // (XML reads a carriage return back as a line feed.)
    expect(cells.map((row) => row.getCell(2).value)).toEqual(
      FORMULAS.map((name) => `'${name.replace('\r', '\n')}`),
    );
    expect(cells.map((row) => row.getCell(1).value)).toEqual(FORMULAS.map((_, i) => -i || 0));
    expect(cells.every((row) => row.getCell(2).type === ExcelJS.ValueType.String)).toBe(true);
  });
});
