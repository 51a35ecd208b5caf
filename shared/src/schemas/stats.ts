/** Schemas of a contest's statistics and report (issue 13). */
export {};
