import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { schoolInputSchema, type SchoolRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../api/catalog-api';
import { CatalogFormDialog } from '../components/catalog/catalog-form-dialog';
import { CatalogPage } from '../components/catalog/catalog-page';
import { FormTextField } from '../components/catalog/form-text-field';
import { EditDeleteButtons, RowActions } from '../components/catalog/row-actions';
import { actionsColumn } from '../components/data-table/actions-column';
import { DataTable } from '../components/data-table/data-table';
import type { DataColumn } from '../components/data-table/table-model';
import { useCatalogDelete } from '../hooks/use-catalog-delete';
import { useCatalogForm } from '../hooks/use-catalog-form';
import { useCatalogList } from '../hooks/use-catalog-list';
import type { CatalogueSceneProps } from './catalogue-scene-props';

// Module-level: the form hook keeps them as stable dependencies.
const resolver = zodResolver(schoolInputSchema);
const emptyValues = () => ({ name: '' });
const valuesOf = (row: SchoolRow) => ({ name: row.name });
const save = (values: { name: string }, editing: SchoolRow | null) =>
  editing ? updateCatalogRow('schools', editing.id, values) : createCatalogRow('schools', values);
const TITLES = { create: 'Registrar Escuela', update: 'Editar Escuela' };

/** /schools: ID, NOMBRE, ACCIONES and the 'Registrar Escuela' / 'Editar Escuela' modal (SPEC.md section 2). */
export function SchoolsScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('schools');
  const remove = useCatalogDelete('schools');
  const dialog = useCatalogForm({
    catalog: 'schools',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;

  const columns = useMemo<DataColumn<SchoolRow>[]>(
    () => [
      { accessorKey: 'id', header: 'ID' },
      { accessorKey: 'name', header: 'NOMBRE' },
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
          Registrar escuela
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="escuelas"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <FormTextField
          label="Nombre"
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
      </CatalogFormDialog>
    </CatalogPage>
  );
}
