import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { careerInputSchema, type CareerInput, type CareerRow } from '@concurso/shared';
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
import { departamentOptionLabel, toOptions } from './catalog-labels';
import type { CatalogueSceneProps } from './catalogue-scene-props';

const resolver = zodResolver(careerInputSchema);
const emptyValues = () => ({ name: '', departaments_id: '' });
const valuesOf = (row: CareerRow) => ({ name: row.name, departaments_id: String(row.departaments_id) });
const save = (values: CareerInput, editing: CareerRow | null) =>
  editing ? updateCatalogRow('careers', editing.id, values) : createCatalogRow('careers', values);
const TITLES = { create: 'Registrar Carrera', update: 'Editar Carrera' };

/**
 * /careers: ID, CARRERA, DEPARTAMENTO, ACCIONES; modal with name and the department select. The
 * department list follows `catalog.changed` like the table.
 */
export function CareersScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('careers');
  const departaments = useCatalogList('departaments');
  const remove = useCatalogDelete('careers');
  const dialog = useCatalogForm({
    catalog: 'careers',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;
  const departamentOptions = useMemo(
    () => toOptions(departaments.rows, departamentOptionLabel),
    [departaments.rows],
  );

  const columns = useMemo<DataColumn<CareerRow>[]>(
    () => [
      { accessorKey: 'id', header: 'ID' },
      { accessorKey: 'name', header: 'CARRERA' },
      { id: 'departament', accessorFn: (row) => row.departament?.name ?? '', header: 'DEPARTAMENTO' },
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
          Registrar carrera
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="carreras"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <FormTextField
          label="Nombre"
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
        <FormSelectField
          label="Departamento"
          placeholder="Seleccione el departamento..."
          options={departamentOptions}
          error={errors.departaments_id?.message}
          registration={dialog.form.register('departaments_id')}
        />
      </CatalogFormDialog>
    </CatalogPage>
  );
}
