import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { processInputSchema, type ProcessRow } from '@concurso/shared';
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
import { useAddCommonProcesses } from '../hooks/use-add-common-processes';

// Module-level: the form hook keeps them as stable dependencies.
const resolver = zodResolver(processInputSchema);
const emptyValues = () => ({ name: '' });
const valuesOf = (row: ProcessRow) => ({ name: row.name });
const save = (values: { name: string }, editing: ProcessRow | null) =>
  editing ? updateCatalogRow('processes', editing.id, values) : createCatalogRow('processes', values);
const TITLES = { create: 'Registrar Proceso', update: 'Editar Proceso' };

/** /process: ID, NOMBRE, ACCIONES, the 'Registrar Proceso' / 'Editar Proceso' modal (one field, an executable
 * file name) and 'Agregar catálogo común'. */
export function ProcessesScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('processes');
  const remove = useCatalogDelete('processes');
  const dialog = useCatalogForm({
    catalog: 'processes',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const addCommon = useAddCommonProcesses();
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;

  const columns = useMemo<DataColumn<ProcessRow>[]>(
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
        <>
          <Button variant="outline" colorPalette="blue" onClick={() => void addCommon()}>
            Agregar catálogo común
          </Button>
          <Button colorPalette="blue" onClick={dialog.openCreate}>
            Registrar proceso
          </Button>
        </>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="procesos"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <FormTextField
          label="Nombre"
          placeholder="Discord.exe"
          helperText="Solo el nombre del ejecutable, sin carpeta. El agente lo reconoce sin distinguir mayúsculas, con o sin .exe."
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
      </CatalogFormDialog>
    </CatalogPage>
  );
}
