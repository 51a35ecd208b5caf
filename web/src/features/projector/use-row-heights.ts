import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';

/** What {@link useRowHeights} gives a column. */
export interface RowHeights {
  /** Observes the hidden rows the column measures; each carries its team's id in `data-team-id`. */
  observer: ResizeObserver;
  /** Border-box heights (px) by team id, as last measured; read it with `version` as a dependency. */
  heights: ReadonlyMap<number, number>;
  /** Grows whenever any height changed, so memos depending on `heights` recompute. */
  version: number;
}

/**
 * The measured heights of a column's rows (issue 14: a page holds the rows that fit, computed from
 * their real heights, not a guessed constant). One ResizeObserver for the column's hidden rows: it
 * reports a row when it is first laid out and whenever its height changes (a name that wraps, a mark
 * that appears, a resized window), at most once a frame, and the column re-pages only then, before
 * the frame is painted.
 */
export function useRowHeights(): RowHeights {
  const [version, setVersion] = useState(0);
  const [measure] = useState(() => {
    const heights = new Map<number, number>();
    const observer = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const id = Number((entry.target as HTMLElement).dataset.teamId);
        const height = entry.borderBoxSize[0]?.blockSize ?? entry.target.getBoundingClientRect().height;
        if (heights.get(id) === height) continue;
        heights.set(id, height);
        changed = true;
      }
      // Re-page before this frame is painted: a row that just grew never shows cut at the bottom.
      if (changed) flushSync(() => setVersion((n) => n + 1));
    });
    return { heights, observer };
  });
  useEffect(() => () => measure.observer.disconnect(), [measure]);
  return { ...measure, version };
}
