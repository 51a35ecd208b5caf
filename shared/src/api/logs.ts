/**
 * The logs module's calls beyond a catalogue's four (SPEC.md section 7), declared with `defineRoute`.
 * Filled in as the module is moved onto the route map (issue 11).
 */
export const logsRoutes = {} as const;
