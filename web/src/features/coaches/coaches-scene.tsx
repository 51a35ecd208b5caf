import { zodResolver } from '@hookform/resolvers/zod';
import { EDUCATION_LEVELS, coachInputSchema } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const EDUCATION_OPTIONS = EDUCATION_LEVELS.map((level) => ({ value: level, label: level }));

const COACHES = catalogScreenSpec('coaches', zodResolver(coachInputSchema), {
  texts: { add: 'Registrar coach', titles: ['Registrar Coach', 'Editar Coach'], file: 'coaches' },
  columns: [
    { accessorKey: 'name', header: 'NOMBRE' },
    { accessorKey: 'educationalLevel', header: 'NIVEL DE EDUCACIÓN' },
  ],
  fields: [
    { name: 'name', label: 'Nombre' },
    {
      kind: 'select',
      name: 'educationalLevel',
      label: 'Nivel de educación',
      placeholder: 'Seleccione el nivel de educación...',
      options: EDUCATION_OPTIONS,
    },
  ],
});

/** /coaches: ID, NOMBRE, NIVEL DE EDUCACIÓN, ACCIONES; modal with name and the education-level select. */
export function CoachesScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={COACHES} title={title} />;
}
