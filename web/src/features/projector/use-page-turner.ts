import { useEffect, useRef, useState } from 'react';
import { clampProjectorPage, nextProjectorPage } from './projector-model';

/**
 * The page (0-based) a projector column shows among `count`, turning to the next every `seconds`
 * seconds while there is more than one. A live change that alters `count` keeps the page
 * the hall is reading (clamped when the list shrank below it) and does not restart the period.
 */
export function usePageTurner(count: number, seconds: number): number {
  const [page, setPage] = useState(0);
  const countRef = useRef(count);
  countRef.current = count;
  const paging = count > 1;
  useEffect(() => {
    if (!paging) return;
    const timer = setInterval(
      () => setPage((index) => nextProjectorPage(index, countRef.current)),
      seconds * 1_000,
    );
    return () => clearInterval(timer);
  }, [paging, seconds]);
  // Remember the clamp, so a list that grows back does not jump forward again.
  const shown = clampProjectorPage(page, count);
  useEffect(() => {
    if (shown !== page) setPage(shown);
  }, [shown, page]);
  return shown;
}
