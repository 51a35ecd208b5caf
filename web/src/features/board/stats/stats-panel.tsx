import { Suspense, lazy, useRef } from 'react';
import { Button, Flex, Heading, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { describeError } from '../../../api/api-error';
import { useNearViewport } from '../../../ui/layout/use-near-viewport';
import { useChartsOpen } from './use-charts-open';
import { useContestStats } from './use-contest-stats';

// recharts and the charts load on their own, only once the panel comes into view: they are about as
// large as the rest of the page (the initial JavaScript stays under 300 KB gzip).
const StatsCharts = lazy(() => import('./stats-charts').then((module) => ({ default: module.StatsCharts })));

/** One figure of the panel. */
function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Stat.Root borderWidth="1px" rounded="md" bg="bg" p="4">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText data-testid={testId}>{value}</Stat.ValueText>
    </Stat.Root>
  );
}

/**
 * /home's "Estadísticas" (judges and admins), under the board: the active contest's teams
 * blocked, attempts and teams, live (`useContestStats`), and the charts of attempts per minute and the
 * most attempted processes, loaded when the panel comes into view ('Ocultar gráficas', remembered,
 * hides them).
 */
export function StatsPanel({ contestId }: { contestId: number }) {
  const { data, error, isPending } = useContestStats(contestId);
  const [chartsOpen, toggleCharts] = useChartsOpen();
  const panel = useRef<HTMLDivElement>(null);
  const inView = useNearViewport(panel);

  return (
    <Stack ref={panel} as="section" gap="3" aria-labelledby="stats-title" data-testid="stats-panel">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" id="stats-title" size="lg">
          Estadísticas
        </Heading>
        <Button size="sm" variant="outline" onClick={toggleCharts} aria-expanded={chartsOpen}>
          {chartsOpen ? 'Ocultar gráficas' : 'Mostrar gráficas'}
        </Button>
      </Flex>
      {isPending ? (
        <Text color="fg.muted">Cargando estadísticas…</Text>
      ) : !data ? (
        <Text color="fg.error">{`No se pudieron cargar las estadísticas: ${describeError(error)}`}</Text>
      ) : (
        <>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
            <Figure
              label="Equipos bloqueados"
              value={`${data.teams_blocked} de ${data.teams}`}
              testId="stats-teams-blocked"
            />
            <Figure label="Intentos" value={data.attempts} testId="stats-attempts" />
            <Figure
              label="Proceso más intentado"
              value={data.top_processes[0]?.process ?? '—'}
              testId="stats-top-process"
            />
          </SimpleGrid>
          {chartsOpen && inView ? (
            <Suspense fallback={<Text color="fg.muted">Cargando gráficas…</Text>}>
              <StatsCharts stats={data} />
            </Suspense>
          ) : null}
        </>
      )}
    </Stack>
  );
}
