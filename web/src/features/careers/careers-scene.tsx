import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { careerInputSchema, type CareerInput, type CareerRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormSelectField } from '../../ui/form/form-select-field';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import { useCatalogList } from '../../api/catalog-cache/use-catalog-list';
import { toOptions } from '../../catalog-screen/select-options';
import { departamentOptionLabel } from './departament-option';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const resolver = zodResolver(careerInputSchema);
const emptyValues = () => ({ name: '', departaments_id: '' });
const valuesOf = (row: CareerRow) => ({ name: row.name, departaments_id: String(row.departaments_id) });
const save = (values: CareerInput, editing: CareerRow | null) =>
  editing ? updateCatalogRow('careers', editing.id, values) : createCatalogRow('careers', values);
const TITLES = { create: 'Registrar Carrera', update: 'Editar Carrera' };

const COLUMNS: DataColumn<CareerRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'CARRERA' },
  { id: 'departament', accessorFn: (row) => row.departament?.name ?? '', header: 'DEPARTAMENTO' },
];
const nameOf = (row: CareerRow) => row.name;

/**
 * /careers: ID, CARRERA, DEPARTAMENTO, ACCIONES; modal with name and the department select. The
 * department list follows `catalog.changed` like the table.
 */
export function CareersScene({ title }: CatalogueSceneProps) {
  const departaments = useCatalogList('departaments');
  const dialog = useCatalogForm({
    catalog: 'careers',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;
  const departamentOptions = useMemo(
    () => toOptions(departaments.rows, departamentOptionLabel),
    [departaments.rows],
  );

  return (
    <CatalogScene
      catalog="careers"
      title={title}
      createLabel="Registrar carrera"
      exportName="carreras"
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
            label="Departamento"
            placeholder="Seleccione el departamento..."
            options={departamentOptions}
            error={errors.departaments_id?.message}
            registration={dialog.form.register('departaments_id')}
          />
        </>
      }
    />
  );
}
