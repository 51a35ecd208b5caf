import { Button } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { processInputSchema, type ProcessRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useAddCommonProcesses } from './use-add-common-processes';

// Module-level: the form hook keeps them as stable dependencies.
const resolver = zodResolver(processInputSchema);
const emptyValues = () => ({ name: '' });
const valuesOf = (row: ProcessRow) => ({ name: row.name });
const save = (values: { name: string }, editing: ProcessRow | null) =>
  editing ? updateCatalogRow('processes', editing.id, values) : createCatalogRow('processes', values);
const TITLES = { create: 'Registrar Proceso', update: 'Editar Proceso' };

const COLUMNS: DataColumn<ProcessRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'NOMBRE' },
];
const nameOf = (row: ProcessRow) => row.name;

/** /process: ID, NOMBRE, ACCIONES, the 'Registrar Proceso' / 'Editar Proceso' modal (one field, an executable
 * file name) and 'Agregar catálogo común'. */
export function ProcessesScene({ title }: CatalogueSceneProps) {
  const dialog = useCatalogForm({
    catalog: 'processes',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const addCommon = useAddCommonProcesses();
  const { errors } = dialog.form.formState;

  return (
    <CatalogScene
      catalog="processes"
      title={title}
      createLabel="Registrar proceso"
      exportName="procesos"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      headerActions={
        <Button variant="outline" colorPalette="blue" onClick={() => void addCommon()}>
          Agregar catálogo común
        </Button>
      }
      fields={
        <FormTextField
          label="Nombre"
          placeholder="Discord.exe"
          helperText="Solo el nombre del ejecutable, sin carpeta. El agente lo reconoce sin distinguir mayúsculas, con o sin .exe."
          error={errors.name?.message}
          registration={dialog.form.register('name')}
        />
      }
    />
  );
}
