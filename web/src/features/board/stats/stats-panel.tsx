import { useMemo, type ReactNode } from 'react';
import { Box, Heading, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { describeError } from '../../../api/api-error';
import { AttemptsChart } from './attempts-chart';
import { ProcessesChart } from './processes-chart';
import { attemptsChartPoints } from './stats-chart-data';
import { useContestStats } from './use-contest-stats';

/** One box of the panel with its title. */
function StatsBox({ title, children }: { title: string; children: ReactNode }) {
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
 * /home's "Estadísticas" (issue 13, judges and admins): the active contest's attempts per minute (a
 * line), its most attempted processes (bars) and its teams blocked, refetched as the board changes.
 * Loaded lazily by `home-scene.tsx`: recharts is not part of the initial JavaScript.
 */
export function StatsPanel({ contestId }: { contestId: number }) {
  const { data, error, isPending } = useContestStats(contestId);
  const points = useMemo(() => (data ? attemptsChartPoints(data) : []), [data]);

  return (
    <Stack as="section" gap="3" aria-labelledby="stats-title" data-testid="stats-panel">
      <Heading as="h2" id="stats-title" size="lg">
        Estadísticas
      </Heading>
      {isPending ? (
        <Text color="fg.muted">Cargando estadísticas…</Text>
      ) : !data ? (
        <Text color="fg.error">{`No se pudieron cargar las estadísticas: ${describeError(error)}`}</Text>
      ) : (
        <>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
            <Stat.Root borderWidth="1px" rounded="md" bg="bg" p="4">
              <Stat.Label>Equipos bloqueados</Stat.Label>
              <Stat.ValueText data-testid="stats-teams-blocked">
                {data.teams_blocked} de {data.teams}
              </Stat.ValueText>
            </Stat.Root>
            <Stat.Root borderWidth="1px" rounded="md" bg="bg" p="4">
              <Stat.Label>Intentos</Stat.Label>
              <Stat.ValueText data-testid="stats-attempts">{data.attempts}</Stat.ValueText>
            </Stat.Root>
            <Stat.Root borderWidth="1px" rounded="md" bg="bg" p="4">
              <Stat.Label>Equipos</Stat.Label>
              <Stat.ValueText>{data.teams}</Stat.ValueText>
            </Stat.Root>
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
            <StatsBox
              title={
                data.bucket_minutes === 1
                  ? 'Intentos por minuto'
                  : `Intentos cada ${data.bucket_minutes} minutos`
              }
            >
              {points.length === 0 ? (
                <Text color="fg.muted">Todavía no hay intentos.</Text>
              ) : (
                <AttemptsChart points={points} />
              )}
            </StatsBox>
            <StatsBox title="Procesos más intentados">
              {data.top_processes.length === 0 ? (
                <Text color="fg.muted">Todavía no hay intentos.</Text>
              ) : (
                <ProcessesChart processes={data.top_processes} />
              )}
            </StatsBox>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
