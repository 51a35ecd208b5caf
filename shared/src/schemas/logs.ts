/** Schemas of the contest log `/bitacora` (issue 13). */
export {};
