import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEPARTAMENT_TYPES,
  departamentInputSchema,
  type DepartamentInput,
  type DepartamentRow,
} from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormSelectField } from '../../ui/form/form-select-field';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import { useCatalogList } from '../../api/catalog-cache/use-catalog-list';
import { toOptions } from '../../catalog-screen/select-options';
import { DEPARTAMENT_TYPE_OPTIONS, departamentTypeLabel } from './departament-type';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const resolver = zodResolver(departamentInputSchema);
// Select values are strings; the shared schema coerces them to numbers. A new departament starts
// 'Interno' so TIPO always has a value (SPEC.md leaves how it is chosen open).
const emptyValues = () => ({ name: '', type: String(DEPARTAMENT_TYPES.internal), schools_id: '' });
const valuesOf = (row: DepartamentRow) => ({
  name: row.name,
  type: String(row.type),
  schools_id: String(row.schools_id),
});
const save = (values: DepartamentInput, editing: DepartamentRow | null) =>
  editing ? updateCatalogRow('departaments', editing.id, values) : createCatalogRow('departaments', values);
const TITLES = { create: 'Registrar Departamento', update: 'Editar Departamento' };

const COLUMNS: DataColumn<DepartamentRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'DEPARTAMENTO' },
  { id: 'type', accessorFn: (row) => departamentTypeLabel(row.type), header: 'TIPO' },
  { id: 'school', accessorFn: (row) => row.school?.name ?? '', header: 'ESCUELA' },
];
const nameOf = (row: DepartamentRow) => row.name;

/**
 * /departaments: ID, DEPARTAMENTO, TIPO (Interno / Externo), ESCUELA, ACCIONES; modal with name, TIPO
 * and the school select. The school list follows `catalog.changed` like the table.
 */
export function DepartamentsScene({ title }: CatalogueSceneProps) {
  const schools = useCatalogList('schools');
  const dialog = useCatalogForm({
    catalog: 'departaments',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;
  const schoolOptions = useMemo(() => toOptions(schools.rows, (row) => row.name), [schools.rows]);

  return (
    <CatalogScene
      catalog="departaments"
      title={title}
      createLabel="Registrar departamento"
      exportName="departamentos"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      fields={
        <>
          <FormTextField
            label="Nombre"
            error={errors.name?.message}
            registration={dialog.form.register('name')}
          />
          <FormSelectField
            label="Tipo"
            options={DEPARTAMENT_TYPE_OPTIONS}
            error={errors.type?.message}
            registration={dialog.form.register('type')}
          />
          <FormSelectField
            label="Escuela"
            placeholder="Seleccione la escuela..."
            options={schoolOptions}
            error={errors.schools_id?.message}
            registration={dialog.form.register('schools_id')}
          />
        </>
      }
    />
  );
}
