import { actionsColumn } from './actions-column';
import type { DataColumn } from './table-model';

/** A career-like row for the table tests. */
export interface CareerLikeRow {
  id: number;
  name: string;
  departament: { name: string };
}

const NAMES = [
  'Ingeniería en Computación',
  'Licenciatura en Física',
  'Álgebra Aplicada',
  'Ingeniería Civil',
  'Biología',
  'Zootecnia',
  'Química',
  'Matemáticas',
  'Ingenieria Industrial',
  'Arquitectura',
  'Diseño',
  'Economía',
];

/** Twelve rows, ids 1..12, in id order. */
export const CAREER_ROWS: CareerLikeRow[] = NAMES.map((name, index) => ({
  id: index + 1,
  name,
  departament: { name: index % 2 === 0 ? 'Ciencias Exactas' : 'Ciencias Básicas' },
}));

/** Columns like the careers screen: ID, CARRERA, DEPARTAMENTO (an embedded name), ACCIONES. */
export const CAREER_COLUMNS: DataColumn<CareerLikeRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'CARRERA' },
  { id: 'departament', accessorFn: (row) => row.departament.name, header: 'DEPARTAMENTO' },
  actionsColumn<CareerLikeRow>(() => null),
];
