import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { ImportTeamsDialog } from './import-teams-dialog';

/** 'Importar' in the header of /teams (issue 13): opens the bulk import of teams and members. */
export function ImportTeamsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" colorPalette="blue" onClick={() => setOpen(true)}>
        Importar
      </Button>
      <ImportTeamsDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
