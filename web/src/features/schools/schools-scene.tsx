import { zodResolver } from '@hookform/resolvers/zod';
import { schoolInputSchema } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const SCHOOLS = catalogScreenSpec('schools', zodResolver(schoolInputSchema), {
  texts: { add: 'Registrar escuela', titles: ['Registrar Escuela', 'Editar Escuela'], file: 'escuelas' },
  columns: [{ accessorKey: 'name', header: 'NOMBRE' }],
  fields: [{ name: 'name', label: 'Nombre' }],
});

/** /schools: ID, NOMBRE, ACCIONES and the 'Registrar Escuela' / 'Editar Escuela' modal (docs/spec.md section 2). */
export function SchoolsScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={SCHOOLS} title={title} />;
}
