import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEPARTAMENT_TYPES,
  departamentInputSchema,
  type DepartamentInput,
  type DepartamentRow,
} from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../api/catalog-api';
import { CatalogFormDialog } from '../components/catalog/catalog-form-dialog';
import { CatalogPage } from '../components/catalog/catalog-page';
import { FormSelectField } from '../components/catalog/form-select-field';
import { FormTextField } from '../components/catalog/form-text-field';
import { EditDeleteButtons, RowActions } from '../components/catalog/row-actions';
import { actionsColumn } from '../components/data-table/actions-column';
import { DataTable } from '../components/data-table/data-table';
import type { DataColumn } from '../components/data-table/table-model';
import { useCatalogDelete } from '../hooks/use-catalog-delete';
import { useCatalogForm } from '../hooks/use-catalog-form';
import { useCatalogList } from '../hooks/use-catalog-list';
import { DEPARTAMENT_TYPE_OPTIONS, departamentTypeLabel, toOptions } from './catalog-labels';
import type { CatalogueSceneProps } from './catalogue-scene-props';

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

/**
 * /departaments: ID, DEPARTAMENTO, TIPO (Interno / Externo), ESCUELA, ACCIONES; modal with name, TIPO
 * and the school select. The school list follows `catalog.changed` like the table.
 */
export function DepartamentsScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('departaments');
  const schools = useCatalogList('schools');
  const remove = useCatalogDelete('departaments');
  const dialog = useCatalogForm({
    catalog: 'departaments',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;
  const schoolOptions = useMemo(() => toOptions(schools.rows, (row) => row.name), [schools.rows]);

  const columns = useMemo<DataColumn<DepartamentRow>[]>(
    () => [
      { accessorKey: 'id', header: 'ID' },
      { accessorKey: 'name', header: 'DEPARTAMENTO' },
      { id: 'type', accessorFn: (row) => departamentTypeLabel(row.type), header: 'TIPO' },
      { id: 'school', accessorFn: (row) => row.school?.name ?? '', header: 'ESCUELA' },
      actionsColumn((row) => (
        <RowActions>
          <EditDeleteButtons onEdit={() => openEdit(row)} onDelete={() => void remove(row.id, row.name)} />
        </RowActions>
      )),
    ],
    [openEdit, remove],
  );

  return (
    <CatalogPage
      title={title}
      actions={
        <Button colorPalette="blue" onClick={dialog.openCreate}>
          Registrar departamento
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="departamentos"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
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
      </CatalogFormDialog>
    </CatalogPage>
  );
}
