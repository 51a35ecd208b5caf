import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resolver } from 'react-hook-form';
import type { DepartamentInput, DepartamentRow, LevelRow } from '@concurso/shared';

const calls: Array<{ kind: 'create' | 'update'; catalog: string; id?: number; input: unknown }> = [];
vi.mock('../api/catalog-api', () => ({
  createCatalogRow: (catalog: string, input: unknown) => {
    calls.push({ kind: 'create', catalog, input });
    return Promise.resolve({ success: true, message: 'Registrado', data: {} });
  },
  updateCatalogRow: (catalog: string, id: number, input: unknown) => {
    calls.push({ kind: 'update', catalog, id, input });
    return Promise.resolve({ success: true, message: 'Guardado', data: {} });
  },
}));

const { catalogScreenSpec } = await import('./catalog-screen-spec');

type DepartamentFields = { name: string; type: string; schools_id: string };
const departamentResolver: Resolver<DepartamentFields, unknown, DepartamentInput> = () => ({
  values: {},
  errors: {},
});

const DEPARTAMENTS = catalogScreenSpec('departaments', departamentResolver, {
  texts: {
    add: 'Registrar departamento',
    titles: ['Registrar Departamento', 'Editar Departamento'],
    file: 'd',
  },
  columns: [{ accessorKey: 'name', header: 'DEPARTAMENTO' }],
  fields: [
    { name: 'name', label: 'Nombre' },
    { kind: 'select', name: 'type', label: 'Tipo', options: [], initial: '0' },
    () => null,
    { kind: 'select', name: 'schools_id', label: 'Escuela' },
  ],
});

const departament: DepartamentRow = {
  id: 7,
  name: 'Computación',
  type: 1,
  schools_id: 3,
  school: { id: 3, name: 'CUCEI' },
};
const progress = { report: () => {}, cancellable: () => {} };

describe('catalogScreenSpec', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('puts ID before the declared columns (every catalogue table of docs/spec.md section 2 starts with it)', () => {
    expect(DEPARTAMENTS.columns.map((column) => column.header)).toEqual(['ID', 'DEPARTAMENTO']);
  });

  it("derives a new row's fields from the declared ones, in order, with their initial values", () => {
    expect(DEPARTAMENTS.emptyValues()).toEqual({ name: '', type: '0', schools_id: '' });
    expect(Object.keys(DEPARTAMENTS.emptyValues())).toEqual(['name', 'type', 'schools_id']);
  });

  it("derives an edited row's fields from its columns, as the strings a select holds", () => {
    expect(DEPARTAMENTS.valuesOf(departament)).toEqual({ name: 'Computación', type: '1', schools_id: '3' });
  });

  it('names a row by its name in the delete question unless told otherwise', () => {
    expect(DEPARTAMENTS.nameOf(departament)).toBe('Computación');
    const levels = catalogScreenSpec(
      'levels',
      (() => ({ values: {}, errors: {} })) as Resolver<{ level: string }>,
      {
        texts: { add: 'Registrar nivel', titles: ['Registrar Nivel', 'Editar Nivel'], file: 'niveles' },
        columns: [],
        nameOf: (row: LevelRow) => row.level,
        fields: [{ name: 'level', label: 'Nivel' }],
      },
    );
    expect(levels.nameOf({ id: 1, level: 'Básico' })).toBe('Básico');
  });

  it('saves a JSON catalogue with create… when nothing is edited and update… with the id otherwise', async () => {
    const input: DepartamentInput = { name: 'Física', type: 0, schools_id: 3 };
    await DEPARTAMENTS.save(input, null, progress);
    await DEPARTAMENTS.save(input, departament, progress);
    expect(calls).toEqual([
      { kind: 'create', catalog: 'departaments', input },
      { kind: 'update', catalog: 'departaments', id: 7, input },
    ]);
  });
});
