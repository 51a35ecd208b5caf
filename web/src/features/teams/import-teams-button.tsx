import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { ImportTeamsDialog } from './import-teams-dialog';
import { TeamImportsDialog } from './team-imports-dialog';

/**
 * 'Importar' and 'Importaciones' in the header of /teams: the bulk import of teams and members
 * and the list of imports, where one is undone.
 */
export function ImportTeamsButton() {
  const [open, setOpen] = useState<'import' | 'imports' | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <Button variant="outline" colorPalette="blue" onClick={() => setOpen('import')}>
        Importar
      </Button>
      <Button variant="outline" onClick={() => setOpen('imports')}>
        Importaciones
      </Button>
      <ImportTeamsDialog open={open === 'import'} onClose={close} />
      <TeamImportsDialog open={open === 'imports'} onClose={close} />
    </>
  );
}
