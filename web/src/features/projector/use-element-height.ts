import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * The content height (px) of the element given to the returned ref, kept up to date by a
 * ResizeObserver (window resizes, a heading that wraps): the projector pages its rows into exactly
 * this height. 0 until the element is laid out.
 */
export function useElementHeight<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [height, setHeight] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    observer.current = new ResizeObserver(([entry]) => {
      // Before this frame is painted: a smaller window never shows the old page's last rows cut.
      if (entry) flushSync(() => setHeight(entry.contentRect.height));
    });
    observer.current.observe(element);
  }, []);
  return [ref, height];
}
