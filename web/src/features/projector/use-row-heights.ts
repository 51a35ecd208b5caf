import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ProjectorRowMetrics } from './projector-model';

/** What {@link useRowHeights} gives a column. */
export interface RowHeights {
  /** Observes the column's hidden sample rows and names (`projector-row-measurer.tsx`). */
  observer: ResizeObserver;
  /** Heights (px) of the level's names by team id, as last measured; read with `version`. */
  names: ReadonlyMap<number, number>;
  /** Grows whenever a name's height changed, so memos depending on `names` recompute. */
  version: number;
  /** The sample rows' parts (null until laid out). */
  metrics: ProjectorRowMetrics | null;
  /** Width (px) of a row's middle part, where its name wraps (0 until laid out). */
  nameWidth: number;
}

/** The height (px) of the first element matching `selector` inside `root` (0 when none). */
function heightOf(root: Element | null, selector: string): number {
  return root?.querySelector(selector)?.getBoundingClientRect().height ?? 0;
}

/**
 * What a column pages with (the rows that fit, from their real heights, not a guessed
 * constant). One ResizeObserver watches the column's two hidden sample rows (one-line name, with and
 * without marks) and each team's name laid out alone at the width names wrap in; it reports when they
 * are first laid out and whenever they change size (a resized window, a longer count, a renamed team),
 * at most once a frame, and the column re-pages then, before the frame is painted. A row's height
 * then follows from its name and marks (`projectorRowHeight`), so an attempt or a block costs no
 * measuring at all (bench:projector, 3,000 teams).
 */
export function useRowHeights(): RowHeights {
  const [version, setVersion] = useState(0);
  const [layout, setLayout] = useState<{ metrics: ProjectorRowMetrics | null; nameWidth: number }>({
    metrics: null,
    nameWidth: 0,
  });
  const [measure] = useState(() => {
    const names = new Map<number, number>();
    const observer = new ResizeObserver((entries) => {
      let namesChanged = false;
      let samples: Element | null = null;
      for (const entry of entries) {
        const target = entry.target as HTMLElement;
        if (target.dataset.teamId === undefined) {
          samples = target.closest('[data-projector-samples]');
          continue;
        }
        const id = Number(target.dataset.teamId);
        const height = entry.borderBoxSize[0]?.blockSize ?? target.getBoundingClientRect().height;
        if (names.get(id) === height) continue;
        names.set(id, height);
        namesChanged = true;
      }
      // Re-page before this frame is painted: a row that just grew never shows cut at the bottom.
      flushSync(() => {
        if (namesChanged) setVersion((n) => n + 1);
        if (samples) {
          const plain = samples.querySelector('[data-sample="plain"]');
          const marked = samples.querySelector('[data-sample="marks"]');
          const metrics: ProjectorRowMetrics = {
            row: plain?.getBoundingClientRect().height ?? 0,
            main: heightOf(plain, '.projector-row-main'),
            name: heightOf(plain, '.projector-row-name'),
            count: heightOf(plain, '.projector-row-count'),
            marks: heightOf(marked, '.projector-row-main') - heightOf(plain, '.projector-row-main'),
          };
          const nameWidth = plain?.querySelector('.projector-row-main')?.getBoundingClientRect().width ?? 0;
          setLayout({ metrics, nameWidth });
        }
      });
    });
    return { names, observer };
  });
  useEffect(() => () => measure.observer.disconnect(), [measure]);
  return { ...measure, version, ...layout };
}
