import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { MessagesDialog } from './messages-dialog';

/** 'Mensajes' on the boards and /laboratorio: opens {@link MessagesDialog} with `teams`. */
export function MessagesButton({ teams }: { teams: ReadonlyArray<{ id: number; name: string }> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="outline" colorPalette="blue" onClick={() => setOpen(true)}>
        Mensajes
      </Button>
      <MessagesDialog open={open} onClose={() => setOpen(false)} teams={teams} />
    </>
  );
}
