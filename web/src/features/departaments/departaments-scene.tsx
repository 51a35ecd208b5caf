import { zodResolver } from '@hookform/resolvers/zod';
import { DEPARTAMENT_TYPES, departamentInputSchema, type SchoolRow } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useCatalogOptions } from '../../catalog-screen/use-catalog-options';
import { DEPARTAMENT_TYPE_OPTIONS, departamentTypeLabel } from './departament-type';

const schoolName = (row: SchoolRow) => row.name;

const DEPARTAMENTS = catalogScreenSpec('departaments', zodResolver(departamentInputSchema), {
  texts: {
    add: 'Registrar departamento',
    titles: ['Registrar Departamento', 'Editar Departamento'],
    file: 'departamentos',
  },
  columns: [
    { accessorKey: 'name', header: 'DEPARTAMENTO' },
    { id: 'type', accessorFn: (row) => departamentTypeLabel(row.type), header: 'TIPO' },
    { id: 'school', accessorFn: (row) => row.school?.name ?? '', header: 'ESCUELA' },
  ],
  fields: [
    { name: 'name', label: 'Nombre' },
    // A new departament starts 'Interno' so TIPO always has a value (docs/spec.md leaves how it is chosen open).
    {
      kind: 'select',
      name: 'type',
      label: 'Tipo',
      options: DEPARTAMENT_TYPE_OPTIONS,
      initial: String(DEPARTAMENT_TYPES.internal),
    },
    { kind: 'select', name: 'schools_id', label: 'Escuela', placeholder: 'Seleccione la escuela...' },
  ],
});

/**
 * /departaments: ID, DEPARTAMENTO, TIPO (Interno / Externo), ESCUELA, ACCIONES; modal with name, TIPO
 * and the school select. The school list follows `catalog.changed` like the table.
 */
export function DepartamentsScene({ title }: CatalogueSceneProps) {
  const schools = useCatalogOptions('schools', schoolName);
  return <CatalogScreen spec={DEPARTAMENTS} title={title} options={{ schools_id: schools }} />;
}
