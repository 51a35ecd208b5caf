import { zodResolver } from '@hookform/resolvers/zod';
import { levelInputSchema } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';

const LEVELS = catalogScreenSpec('levels', zodResolver(levelInputSchema), {
  texts: { add: 'Registrar nivel', titles: ['Registrar Nivel', 'Editar Nivel'], file: 'niveles' },
  columns: [{ accessorKey: 'level', header: 'NIVEL' }],
  nameOf: (row) => row.level,
  fields: [{ name: 'level', label: 'Nivel' }],
});

/** /levels: ID, NIVEL, ACCIONES and the 'Registrar Nivel' / 'Editar Nivel' modal with one field, level. */
export function LevelsScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={LEVELS} title={title} />;
}
