import { useCallback } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { processInputSchema, type ProcessRow } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import { RowButton } from '../../ui/data-table/row-actions';
import { AddCommonProcessesButton } from './add-common-processes-button';
import { FingerprintsDialog } from './fingerprints-dialog';

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
 * /process: ID, NOMBRE, ACCIONES ('Huellas', 'Editar', 'Eliminar'), the 'Registrar Proceso' / 'Editar
 * Proceso' modal (one field, an executable file name), 'Agregar catálogo común', and the 'Huellas' dialog
 * (docs/design.md section 6a "Fingerprints"): the fingerprints reported for the process in the active
 * contest.
 */
export function ProcessesScene({ title }: CatalogueSceneProps) {
  const fingerprints = useRowDialog<ProcessRow, 'fingerprints'>();
  const { show } = fingerprints;
  const rowButtons = useCallback(
    (row: ProcessRow) => (
      <RowButton label="Huellas" palette="teal" onClick={() => show('fingerprints', row)} />
    ),
    [show],
  );
  return (
    <CatalogScreen spec={PROCESSES} title={title} rowButtons={rowButtons}>
      <FingerprintsDialog
        process={fingerprints.row}
        open={fingerprints.open === 'fingerprints'}
        onClose={fingerprints.close}
      />
    </CatalogScreen>
  );
}
