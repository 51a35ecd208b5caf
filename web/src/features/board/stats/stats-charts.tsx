import { memo, useMemo, type ReactNode } from 'react';
import { Box, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import type { ContestStats } from '@concurso/shared';
import { AttemptsChart } from './attempts-chart';
import { ProcessesChart } from './processes-chart';
import { attemptsChartPoints } from './stats-chart-data';

/** One chart of the panel with its title. */
function ChartBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section" borderWidth="1px" rounded="md" bg="bg" p="4">
      <Heading as="h3" size="sm" mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/**
 * The two charts of /home's "Estadísticas": attempts per minute (a line) and the most
 * attempted processes (bars), with Chakra's charts on recharts. Loaded lazily by `stats-panel.tsx`
 * (`React.lazy`): recharts is never part of the initial JavaScript. Memoized: the panel renders again
 * for its own reasons (the 'Ocultar gráficas' toggle, the viewport), recharts only for new statistics.
 */
export const StatsCharts = memo(function StatsCharts({ stats }: { stats: ContestStats }) {
  const points = useMemo(() => attemptsChartPoints(stats), [stats]);
  const none = <Text color="fg.muted">Todavía no hay intentos.</Text>;
  return (
    <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4" data-testid="stats-charts">
      <ChartBox
        title={
          stats.bucket_minutes === 1 ? 'Intentos por minuto' : `Intentos cada ${stats.bucket_minutes} minutos`
        }
      >
        {points.length === 0 ? none : <AttemptsChart points={points} />}
      </ChartBox>
      <ChartBox title="Procesos más intentados">
        {stats.top_processes.length === 0 ? none : <ProcessesChart processes={stats.top_processes} />}
      </ChartBox>
    </SimpleGrid>
  );
});
