import { zodResolver } from '@hookform/resolvers/zod';
import { schoolInputSchema, type SchoolRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

// Module-level: the form hook keeps them as stable dependencies.
const resolver = zodResolver(schoolInputSchema);
const emptyValues = () => ({ name: '' });
const valuesOf = (row: SchoolRow) => ({ name: row.name });
const save = (values: { name: string }, editing: SchoolRow | null) =>
  editing ? updateCatalogRow('schools', editing.id, values) : createCatalogRow('schools', values);
const TITLES = { create: 'Registrar Escuela', update: 'Editar Escuela' };

const COLUMNS: DataColumn<SchoolRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'NOMBRE' },
];
const nameOf = (row: SchoolRow) => row.name;

/** /schools: ID, NOMBRE, ACCIONES and the 'Registrar Escuela' / 'Editar Escuela' modal (SPEC.md section 2). */
export function SchoolsScene({ title }: CatalogueSceneProps) {
  const dialog = useCatalogForm({
    catalog: 'schools',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;

  return (
    <CatalogScene
      catalog="schools"
      title={title}
      createLabel="Registrar escuela"
      exportName="escuelas"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      fields={
        <FormTextField
          label="Nombre"
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
      }
    />
  );
}
