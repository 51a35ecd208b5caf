import { useEffect, useMemo } from 'react';
import { Box, Flex, Grid, Heading, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@concurso/shared';
import { ConnectionIndicator } from '../../ui/connection-indicator';
import { ProjectorClock } from './projector-clock';
import { ProjectorColumn } from './projector-column';
import { PROJECTOR_ROW_CSS } from './projector-row';
import { PROJECTOR_MEASURE_CSS } from './projector-row-measurer';
import { useThrottledBoardTeams } from './use-throttled-board-teams';
import { useBoardStore } from '../../stores/board-store';
import {
  projectorColumns,
  projectorFollowedLevels,
  projectorLevels,
  projectorPagingSeconds,
  projectorTitle,
} from './projector-model';

// Type scales with the screen, by the smaller of its width and height (the vh factor is the vw one
// times 16/9, so a 16:9 screen gets the same from both): readable from the back of a hall at 1280x720
// and 1920x1080, twice as large at a native 3840x2160 without display scaling (capped at the 1080p
// size, it was small there), and held by the height on an ultra-wide screen. Sized so a level's
// column holds at least 15 teams at 1920x1080 before it pages, a mark under every name included (the
// demo has 10 per level; e2e/projector-capacity.test.ts measures 720p, 1080p and 4K): the name 24 px
// there (1.25vw; a long name shrinks to 18 px at the least, PROJECTOR_ROW_CSS), the count 34.5 px.
// --projector-space is the rows' and headings' padding, so the density is the same at every size.
const CSS = `
  .projector {
    --projector-name: clamp(18px, min(1.25vw, 2.223vh), 60px);
    --projector-count: clamp(22px, min(1.8vw, 3.2vh), 80px);
    --projector-title: clamp(20px, min(1.6vw, 2.845vh), 76px);
    --projector-small: clamp(12px, min(0.9vw, 1.6vh), 40px);
    --projector-badge: clamp(11px, min(0.8vw, 1.423vh), 36px);
    --projector-space: clamp(2px, min(0.21vw, 0.3734vh), 10px);
  }
${PROJECTOR_ROW_CSS}
${PROJECTOR_MEASURE_CSS}`;

/** How often the projector re-sorts its columns at most (ms). */
const SORT_INTERVAL_MS = 250;

/**
 * /proyector: the kiosk view for the contest hall (no header, footer or buttons). The active contest
 * and a clock, the connection state, and the levels side by side (or one with `?nivel=<id>`), teams
 * sorted by attempts, each level paging by itself when its rows do not fit (every 10 s, or
 * `?segundos=N`, 3..120), live through the same store and events as the boards; `MESSAGES.noActiveContest`
 * instead of the levels when no contest is active.
 */
export function ProjectorScene() {
  const [params] = useSearchParams();
  const nivel = params.get('nivel');
  const levels = useMemo(() => projectorLevels(nivel), [nivel]);
  const seconds = projectorPagingSeconds(params.get('segundos'));
  // Re-sorting thousands of teams on every event would block the page: a few times a second is live enough.
  const teams = useThrottledBoardTeams(SORT_INTERVAL_MS);
  const contest = useBoardStore((state) => state.contest);
  const connection = useBoardStore((state) => state.connection);
  const loaded = useBoardStore((state) => state.loaded);
  const columns = useMemo(() => projectorColumns(teams, levels), [teams, levels]);

  // One level's projector follows only that level's room; the server sends it nothing else.
  const followed = useMemo(() => projectorFollowedLevels(levels), [levels]);
  useEffect(() => {
    const board = useBoardStore.getState();
    board.start(followed);
    return () => board.stop();
  }, [followed]);

  return (
    <Box
      className="projector"
      h="100vh"
      bg="gray.950"
      color="white"
      display="flex"
      flexDirection="column"
      p="calc(var(--projector-space) * 3)"
      gap="calc(var(--projector-space) * 3)"
    >
      <style>{CSS}</style>
      <Flex align="center" justify="space-between" gap="6">
        <Heading as="h1" fontSize="var(--projector-title)">
          {projectorTitle(contest)}
        </Heading>
        <Flex align="center" gap="6">
          <Box fontSize="var(--projector-small)" color="white">
            <ConnectionIndicator state={connection} />
          </Box>
          <ProjectorClock />
        </Flex>
      </Flex>
      {/* No active contest: the hall reads why, not three empty columns. */}
      {loaded && !contest ? (
        <Flex flex="1" align="center" justify="center" data-testid="no-active-contest">
          <Text fontSize="var(--projector-title)" textAlign="center" color="whiteAlpha.800">
            {MESSAGES.noActiveContest}
          </Text>
        </Flex>
      ) : loaded ? (
        <Grid
          flex="1"
          minH="0"
          gap="calc(var(--projector-space) * 3)"
          // Side by side on a hall's screen; stacked on a phone (below 768 px), where three columns
          // would break the names letter by letter. Each cell is exactly its share of the height: a
          // column's page is measured against it, never grows it.
          templateColumns={{ base: 'minmax(0, 1fr)', md: `repeat(${columns.length}, minmax(0, 1fr))` }}
          templateRows={{ base: `repeat(${columns.length}, minmax(0, 1fr))`, md: 'minmax(0, 1fr)' }}
        >
          {columns.map((column) => (
            <ProjectorColumn key={column.level} column={column} seconds={seconds} />
          ))}
        </Grid>
      ) : (
        <Text fontSize="var(--projector-name)">Cargando el tablero…</Text>
      )}
      <Text fontSize="var(--projector-small)" color="whiteAlpha.600">
        Intentos de ejecutar programas bloqueados, en vivo.
      </Text>
    </Box>
  );
}
