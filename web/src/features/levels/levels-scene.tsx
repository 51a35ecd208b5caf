import { zodResolver } from '@hookform/resolvers/zod';
import { levelInputSchema, type LevelRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import { FormTextField } from '../../ui/form/form-text-field';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

// Module-level: the form hook and the table keep them as stable dependencies.
const resolver = zodResolver(levelInputSchema);
const emptyValues = () => ({ level: '' });
const valuesOf = (row: LevelRow) => ({ level: row.level });
const save = (values: { level: string }, editing: LevelRow | null) =>
  editing ? updateCatalogRow('levels', editing.id, values) : createCatalogRow('levels', values);
const TITLES = { create: 'Registrar Nivel', update: 'Editar Nivel' };
const COLUMNS: DataColumn<LevelRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'level', header: 'NIVEL' },
];
const nameOf = (row: LevelRow) => row.level;

/** /levels: ID, NIVEL, ACCIONES and the 'Registrar Nivel' / 'Editar Nivel' modal with one field, level. */
export function LevelsScene({ title }: CatalogueSceneProps) {
  const dialog = useCatalogForm({ catalog: 'levels', resolver, emptyValues, valuesOf, save, titles: TITLES });
  const { errors } = dialog.form.formState;
  return (
    <CatalogScene
      catalog="levels"
      title={title}
      createLabel="Registrar nivel"
      exportName="niveles"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      fields={
        <FormTextField
          label="Nivel"
          error={errors.level?.message}
          registration={dialog.form.register('level')}
        />
      }
    />
  );
}
