import { useEffect, useState, type RefObject } from 'react';

/**
 * True once the element of `ref` has come within `marginPx` (px) of the viewport, and from then on
 * (it never turns false). For loading a heavy part only when a user can see it: /home's charts
 * sit under the board, so a judge who never scrolls to them never downloads their library.
 * Without `IntersectionObserver` (old browsers, some test DOMs) it answers true at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, marginPx = 200): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: `${marginPx}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near, marginPx]);
  return near;
}
