import { zodResolver } from '@hookform/resolvers/zod';
import { processInputSchema } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { AddCommonProcessesButton } from './add-common-processes-button';

const PROCESSES = catalogScreenSpec('processes', zodResolver(processInputSchema), {
  texts: { add: 'Registrar proceso', titles: ['Registrar Proceso', 'Editar Proceso'], file: 'procesos' },
  columns: [{ accessorKey: 'name', header: 'NOMBRE' }],
  headerActions: <AddCommonProcessesButton />,
  fields: [
    {
      name: 'name',
      label: 'Nombre',
      placeholder: 'Discord.exe',
      helperText:
        'Solo el nombre del ejecutable, sin carpeta. El agente lo reconoce sin distinguir mayúsculas, con o sin .exe.',
    },
  ],
});

/**
 * /process: ID, NOMBRE, ACCIONES, the 'Registrar Proceso' / 'Editar Proceso' modal (one field, an
 * executable file name) and 'Agregar catálogo común'.
 */
export function ProcessesScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={PROCESSES} title={title} />;
}
