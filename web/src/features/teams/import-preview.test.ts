import { describe, expect, it } from 'vitest';
import { IMPORT_EXAMPLE_TEAM, IMPORT_MAX_BYTES, IMPORT_MESSAGES, type ImportPreview } from '@concurso/shared';
import { ApiRequestError } from '../../api/api-error';
import { importFormData } from './import-api';
import {
  canImport,
  importButtonText,
  importEncodingNote,
  importErrorText,
  importFileProblem,
  importSummaryRows,
  rejectedImportErrors,
} from './import-preview';
import { importTemplateHeaders, importTemplateSheets } from './import-template';

const preview = (
  errors: ImportPreview['errors'] = [],
  encoding: ImportPreview['encoding'] = 'utf-8',
): ImportPreview => ({
  members: 3,
  errors,
  encoding,
  teams: [
    {
      name: 'Bits Veloces',
      level: 'Básico',
      coach: 'Dra. María Núñez',
      members: [
        { code: 'A-1', name: 'Luis', semester: 3, career: 'Computación' },
        { code: 'A-2', name: 'Marta', semester: 5, career: 'Computación' },
      ],
    },
    { name: 'Ñandúes', level: 'Avanzado', coach: 'Mtro. Óscar Ruiz', members: [] },
  ],
});

describe('the import dialog (bulk import of teams and members)', () => {
  it('sends only .csv and .xlsx files within the size limit', () => {
    expect(importFileProblem({ name: 'registro.CSV', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'registro.xlsx', size: IMPORT_MAX_BYTES })).toBeNull();
    expect(importFileProblem({ name: 'registro.xls', size: 10 })).toBe(IMPORT_MESSAGES.notSpreadsheet);
    expect(importFileProblem({ name: 'registro.csv.pdf', size: 10 })).toBe(IMPORT_MESSAGES.notSpreadsheet);
    expect(importFileProblem({ name: 'registro.csv', size: IMPORT_MAX_BYTES + 1 })).toBe(
      IMPORT_MESSAGES.tooLarge,
    );
  });

  it('lists a bad row with its line and names the button by the teams', () => {
    expect(importErrorText({ line: 7, message: 'Nivel desconocido «Experto»' })).toBe(
      'Línea 7: Nivel desconocido «Experto»',
    );
    expect(importButtonText(preview())).toBe('Importar 2 equipos');
    expect(importButtonText({ ...preview(), teams: preview().teams.slice(0, 1) })).toBe('Importar 1 equipo');
    // With bad rows (or before the preview) it promises no count.
    expect(importButtonText(preview([{ line: 4, message: 'Falta el campo código' }]))).toBe('Importar');
    expect(importButtonText(null)).toBe('Importar');
  });

  it('asks to check the accents of a CSV read as Windows-1252', () => {
    expect(importEncodingNote(preview([], 'windows-1252'))).toBe(IMPORT_MESSAGES.readAsWindows1252);
    expect(importEncodingNote(preview())).toBeNull();
    expect(importEncodingNote(preview([], null))).toBeNull();
  });

  it('allows the import only with teams and no bad row', () => {
    expect(canImport(null)).toBe(false);
    expect(canImport(preview())).toBe(true);
    expect(canImport(preview([{ line: 4, message: 'Falta el campo código' }]))).toBe(false);
    expect(canImport({ teams: [], errors: [], members: 0, encoding: null })).toBe(false);
  });

  it('shows each team with its level, coach, member count and names', () => {
    expect(importSummaryRows(preview())).toEqual([
      { name: 'Bits Veloces', level: 'Básico', coach: 'Dra. María Núñez', members: 2, names: 'Luis, Marta' },
      { name: 'Ñandúes', level: 'Avanzado', coach: 'Mtro. Óscar Ruiz', members: 0, names: '' },
    ]);
  });

  it("reads a refused import's rows from its 422, and nothing from other failures", () => {
    const rows = [{ line: 5, message: 'El código C-1 se repite (ya está en la línea 2)' }];
    const refused = new ApiRequestError({
      kind: 'http',
      status: 422,
      serverMessage: IMPORT_MESSAGES.rejected,
      body: { success: false, message: IMPORT_MESSAGES.rejected, errors: rows },
    });
    expect(rejectedImportErrors(refused)).toEqual(rows);
    const fieldErrors = new ApiRequestError({
      kind: 'http',
      status: 422,
      body: { success: false, message: 'x', errors: { contests_id: ['Este campo es requerido'] } },
    });
    expect(rejectedImportErrors(fieldErrors)).toBeNull();
    expect(
      rejectedImportErrors(new ApiRequestError({ kind: 'http', status: 415, body: { errors: rows } })),
    ).toBeNull();
    expect(rejectedImportErrors(new Error('x'))).toBeNull();
  });

  it('sends the contest, then the file in `file`', () => {
    const file = new File(['Equipo;Nivel'], 'registro.csv', { type: 'text/csv' });
    const form = importFormData(4, file);
    expect([...form.keys()]).toEqual(['contests_id', 'file']);
    expect(form.get('contests_id')).toBe('4');
    expect((form.get('file') as File).name).toBe('registro.csv');
  });

  it("writes the template's example row and the catalogues' sheet", () => {
    const sheets = importTemplateSheets({
      levels: [
        { id: 1, level: 'Básico' },
        { id: 2, level: 'Intermedio' },
      ],
      coaches: [{ id: 7, name: 'Dra. Carmen Ruiz', educationalLevel: 'Doctorado' }],
      careers: [
        { id: 3, name: 'Computación', departaments_id: 1, departament: { id: 1, name: 'Ciencias' } },
        { id: 4, name: 'Computación', departaments_id: 2, departament: { id: 2, name: 'Sistemas' } },
        { id: 5, name: 'Informática', departaments_id: 1, departament: { id: 1, name: 'Ciencias' } },
      ],
    });
    expect(sheets.map((sheet) => sheet.name)).toEqual(['Equipos', 'Catálogos']);
    expect(sheets[0]!.data).toEqual({
      headers: importTemplateHeaders(),
      rows: [
        [
          IMPORT_EXAMPLE_TEAM,
          'Básico',
          'Dra. Carmen Ruiz',
          '219000001',
          'Ana López Pérez',
          3,
          'Computación (Ciencias)',
        ],
      ],
    });
    expect(sheets[1]!.data).toEqual({
      headers: ['Nivel', 'Coach', 'Carrera'],
      rows: [
        ['Básico', 'Dra. Carmen Ruiz', 'Computación (Ciencias)'],
        ['Intermedio', '', 'Computación (Sistemas)'],
        ['', '', 'Informática (Ciencias)'],
      ],
    });
  });

  it("writes the template's headers in the registration file's order", () => {
    expect(importTemplateHeaders()).toEqual([
      'Equipo',
      'Nivel',
      'Coach',
      'Código',
      'Nombre',
      'Semestre',
      'Carrera',
    ]);
  });
});
