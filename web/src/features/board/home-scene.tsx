import { Heading, Stack } from '@chakra-ui/react';
import { useBoardStore } from '../../stores/board-store';
import { LiveBoard } from './live-board';
import { StatsPanel } from './stats/stats-panel';

/**
 * /home and /homeJuez: 'Información de la competencia actual', the live board and, under it, the
 * active contest's "Estadísticas" (its charts load lazily).
 */
export function HomeScene() {
  const contestId = useBoardStore((state) => state.contest?.id ?? null);
  return (
    <Stack gap="8">
      <Stack gap="4">
        <Heading as="h1" size="2xl">
          Información de la competencia actual
        </Heading>
        <LiveBoard />
      </Stack>
      {contestId === null ? null : <StatsPanel contestId={contestId} />}
    </Stack>
  );
}
