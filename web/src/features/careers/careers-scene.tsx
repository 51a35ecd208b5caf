import { zodResolver } from '@hookform/resolvers/zod';
import { careerInputSchema } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useCatalogOptions } from '../../catalog-screen/use-catalog-options';
import { departamentOptionLabel } from './departament-option';

const CAREERS = catalogScreenSpec('careers', zodResolver(careerInputSchema), {
  texts: { add: 'Registrar carrera', titles: ['Registrar Carrera', 'Editar Carrera'], file: 'carreras' },
  columns: [
    { accessorKey: 'name', header: 'CARRERA' },
    { id: 'departament', accessorFn: (row) => row.departament?.name ?? '', header: 'DEPARTAMENTO' },
  ],
  fields: [
    { name: 'name', label: 'Nombre' },
    {
      kind: 'select',
      name: 'departaments_id',
      label: 'Departamento',
      placeholder: 'Seleccione el departamento...',
    },
  ],
});

/**
 * /careers: ID, CARRERA, DEPARTAMENTO, ACCIONES; modal with name and the department select. The
 * department list follows `catalog.changed` like the table.
 */
export function CareersScene({ title }: CatalogueSceneProps) {
  const departaments = useCatalogOptions('departaments', departamentOptionLabel);
  return <CatalogScreen spec={CAREERS} title={title} options={{ departaments_id: departaments }} />;
}
