/**
 * Bulk import of teams and members (issue 13): preview and import of a CSV or XLSX registration file.
 * Filled in by the imports module's work.
 */
export const importsRoutes = {} as const;
