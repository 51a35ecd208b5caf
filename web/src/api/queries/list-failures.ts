import type { ListErrorView } from './list-errors';

/**
 * Failed loads of catalogue lists, for the list-failure dialog (docs/spec.md section 8): the query client
 * reports them here and the feedback store (stores/feedback-store.ts) listens, so `api/` never imports
 * a store (the door between them opens one way).
 */
const listeners = new Set<(view: ListErrorView) => void>();

/** Runs `listener` with every list failure reported from now on; answers the function that stops it. */
export function onListFailure(listener: (view: ListErrorView) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells every listener that a catalogue list failed to load, as the dialog says it. */
export function reportListFailure(view: ListErrorView): void {
  for (const listener of [...listeners]) listener(view);
}
