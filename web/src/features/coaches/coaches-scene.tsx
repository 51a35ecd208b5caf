import { zodResolver } from '@hookform/resolvers/zod';
import { EDUCATION_LEVELS, coachInputSchema, type CoachInput, type CoachRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormSelectField } from '../../ui/form/form-select-field';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

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

const COLUMNS: DataColumn<CoachRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'NOMBRE' },
  { accessorKey: 'educationalLevel', header: 'NIVEL DE EDUCACIÓN' },
];
const nameOf = (row: CoachRow) => row.name;

/** /coaches: ID, NOMBRE, NIVEL DE EDUCACIÓN, ACCIONES; modal with name and the education-level select. */
export function CoachesScene({ title }: CatalogueSceneProps) {
  const dialog = useCatalogForm({
    catalog: 'coaches',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;

  return (
    <CatalogScene
      catalog="coaches"
      title={title}
      createLabel="Registrar coach"
      exportName="coaches"
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
            label="Nivel de educación"
            placeholder="Seleccione el nivel de educación..."
            options={EDUCATION_OPTIONS}
            error={errors.educationalLevel?.message}
            registration={dialog.form.register('educationalLevel')}
          />
        </>
      }
    />
  );
}
