/** A contest's statistics and report (issue 13): the /home "Estadísticas" panel and /contests "Reporte". */
export const statsRoutes = {} as const;
