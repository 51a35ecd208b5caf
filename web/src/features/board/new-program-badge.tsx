import { useEffect, useState } from 'react';
import { Badge } from '@chakra-ui/react';
import type { BoardTeam } from '@concurso/shared';
import { NEW_PROGRAM_CHECK_MS, newProgramMark } from './new-program-mark';

/**
 * The «Programa nuevo» badge of a board row (`newProgramMark`), its program's name in the title; it
 * goes by itself when the mark grows old on an open screen (checked every `NEW_PROGRAM_CHECK_MS`).
 * Renders nothing without a recent mark.
 */
export function NewProgramBadge({ mark }: { mark: BoardTeam['new_program'] }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!mark) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), NEW_PROGRAM_CHECK_MS);
    return () => clearInterval(timer);
  }, [mark]);
  const shown = newProgramMark({ new_program: mark }, now);
  if (!shown) return null;
  return (
    <Badge colorPalette="purple" variant="solid" title={shown.title} data-testid="new-program">
      {shown.label}
    </Badge>
  );
}
