import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { levelInputSchema, type LevelRow } from '@concurso/shared';
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
const resolver = zodResolver(levelInputSchema);
const emptyValues = () => ({ level: '' });
const valuesOf = (row: LevelRow) => ({ level: row.level });
const save = (values: { level: string }, editing: LevelRow | null) =>
  editing ? updateCatalogRow('levels', editing.id, values) : createCatalogRow('levels', values);
const TITLES = { create: 'Registrar Nivel', update: 'Editar Nivel' };

/** /levels: ID, NIVEL, ACCIONES and the 'Registrar Nivel' / 'Editar Nivel' modal with one field, level. */
export function LevelsScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('levels');
  const remove = useCatalogDelete('levels');
  const dialog = useCatalogForm({ catalog: 'levels', resolver, emptyValues, valuesOf, save, titles: TITLES });
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;

  const columns = useMemo<DataColumn<LevelRow>[]>(
    () => [
      { accessorKey: 'id', header: 'ID' },
      { accessorKey: 'level', header: 'NIVEL' },
      actionsColumn((row) => (
        <RowActions>
          <EditDeleteButtons onEdit={() => openEdit(row)} onDelete={() => void remove(row.id, row.level)} />
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
          Registrar nivel
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="niveles"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <FormTextField
          label="Nivel"
          error={errors.level?.message}
          registration={dialog.form.register('level')}
        />
      </CatalogFormDialog>
    </CatalogPage>
  );
}
