import { memo, useMemo, type CSSProperties } from 'react';
import { Box, Flex, Heading, Text } from '@chakra-ui/react';
import {
  projectorPageItems,
  projectorPageLabel,
  projectorPageStarts,
  projectorRowHeights,
  type ProjectorColumn as Column,
} from './projector-model';
import { ProjectorRow } from './projector-row';
import { ProjectorRowMeasurer } from './projector-row-measurer';
import { useElementHeight } from './use-element-height';
import { usePageTurner } from './use-page-turner';
import { useRowHeights } from './use-row-heights';

/** Props of {@link ProjectorColumn}. */
export interface ProjectorColumnProps {
  column: Column;
  /** The paging period (s), from `?segundos=` (`projectorPagingSeconds`). */
  seconds: number;
}

/**
 * One level on the projector. Its list shows the whole rows that fit the column (heights measured,
 * never guessed) and, when they do not all fit, pages by itself every `seconds` with 'Página 1 de 3'
 * in the heading, in the board's order. A live change re-pages in place: same page index,
 * clamped when there are fewer pages. Memoized: it renders when its level's rows, their heights, the
 * column's height or its page change.
 */
export const ProjectorColumn = memo(function ProjectorColumn({ column, seconds }: ProjectorColumnProps) {
  const [listRef, available] = useElementHeight<HTMLDivElement>();
  const { observer, names, version, metrics, nameWidth } = useRowHeights();
  const starts = useMemo(() => {
    const heights = projectorRowHeights(column.teams, names, metrics);
    return heights && available > 0 ? projectorPageStarts(heights, available) : null;
    // `version` stands for the contents of `names`, a map updated in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [column.teams, names, version, metrics, available]);
  const pageCount = starts?.length ?? 1;
  const page = usePageTurner(pageCount, seconds);
  const first = starts?.[page] ?? 0;
  const rows = starts ? projectorPageItems(column.teams, starts, page) : [];

  return (
    <Box
      data-testid={`projector-${column.level}`}
      display="flex"
      flexDirection="column"
      minH="0"
      bg="whiteAlpha.50"
      borderRadius="lg"
      overflow="hidden"
    >
      <Flex
        px="calc(var(--projector-space) * 3)"
        py="calc(var(--projector-space) * 1.5)"
        bg="whiteAlpha.100"
        align="baseline"
        justify="space-between"
        wrap="wrap"
        columnGap="4"
      >
        <Heading as="h2" fontSize="var(--projector-title)">
          {column.title}{' '}
          <Text as="span" color="whiteAlpha.600" fontSize="var(--projector-small)">
            {column.teams.length} equipos
          </Text>
        </Heading>
        {pageCount > 1 ? (
          <Text
            data-testid={`projector-page-${column.level}`}
            fontSize="var(--projector-small)"
            color="whiteAlpha.800"
            fontVariantNumeric="tabular-nums"
          >
            {projectorPageLabel(page, pageCount)}
          </Text>
        ) : null}
      </Flex>
      {column.teams.length === 0 ? (
        <Text px="4" py="3" fontSize="var(--projector-name)" color="whiteAlpha.700">
          No hay registros para mostrar
        </Text>
      ) : (
        <Box
          ref={listRef}
          // A long name's size follows the width names wrap in, the samples' (PROJECTOR_ROW_CSS): the
          // same for the rows on screen and the names measured, and never larger than measured.
          style={
            nameWidth > 0 ? ({ '--projector-name-width': `${nameWidth}px` } as CSSProperties) : undefined
          }
          data-testid={`projector-list-${column.level}`}
          flex="1"
          minH="0"
          position="relative"
        >
          {rows.map((team, index) => (
            <ProjectorRow
              key={team.id}
              team={team}
              place={first + index + 1}
              maxAttempts={column.maxAttempts}
            />
          ))}
          <ProjectorRowMeasurer
            teams={column.teams}
            maxAttempts={column.maxAttempts}
            nameWidth={nameWidth}
            observer={observer}
          />
        </Box>
      )}
    </Box>
  );
});
