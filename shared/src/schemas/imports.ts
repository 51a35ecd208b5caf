/** Schemas of the bulk import of teams and members (issue 13). */
export {};
