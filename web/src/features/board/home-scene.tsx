import { Suspense, lazy } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import { useBoardStore } from '../../stores/board-store';
import { LiveBoard } from './live-board';

// Loaded on its own (React.lazy): recharts and the charts stay out of the initial JavaScript (issue 13:
// under 300 KB gzip), and the board shows before them.
const StatsPanel = lazy(() =>
  import('./stats/stats-panel').then((module) => ({ default: module.StatsPanel })),
);

/**
 * /home and /homeJuez: 'Información de la competencia actual', the live board and, under it, the
 * active contest's "Estadísticas" (issue 13).
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
      {contestId === null ? null : (
        <Suspense fallback={<Text color="fg.muted">Cargando estadísticas…</Text>}>
          <StatsPanel contestId={contestId} />
        </Suspense>
      )}
    </Stack>
  );
}
