import { useMemo } from 'react';
import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { EDUCATION_LEVELS, coachInputSchema, type CoachInput, type CoachRow } from '@concurso/shared';
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
import type { CatalogueSceneProps } from './catalogue-scene-props';

const resolver = zodResolver(coachInputSchema);
const emptyValues = () => ({ name: '', educationalLevel: '' as CoachInput['educationalLevel'] });
const valuesOf = (row: CoachRow) => ({
  name: row.name,
  educationalLevel: row.educationalLevel as CoachInput['educationalLevel'],
});
const save = (values: CoachInput, editing: CoachRow | null) =>
  editing ? updateCatalogRow('coaches', editing.id, values) : createCatalogRow('coaches', values);
const TITLES = { create: 'Registrar Coach', update: 'Editar Coach' };
const EDUCATION_OPTIONS = EDUCATION_LEVELS.map((level) => ({ value: level, label: level }));

/** /coaches: ID, NOMBRE, NIVEL DE EDUCACIÓN, ACCIONES; modal with name and the education-level select. */
export function CoachesScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('coaches');
  const remove = useCatalogDelete('coaches');
  const dialog = useCatalogForm({
    catalog: 'coaches',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { openEdit } = dialog;
  const { errors } = dialog.form.formState;

  const columns = useMemo<DataColumn<CoachRow>[]>(
    () => [
      { accessorKey: 'id', header: 'ID' },
      { accessorKey: 'name', header: 'NOMBRE' },
      { accessorKey: 'educationalLevel', header: 'NIVEL DE EDUCACIÓN' },
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
          Registrar coach
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="coaches"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
        <FormTextField
          label="Nombre"
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
        <FormSelectField
          label="Nivel de educación"
          placeholder="Seleccione el nivel de educación..."
          options={EDUCATION_OPTIONS}
          error={errors.educationalLevel?.message}
          registration={dialog.form.register('educationalLevel')}
        />
      </CatalogFormDialog>
    </CatalogPage>
  );
}
