import { memo } from 'react';
import { Box, Heading, Text } from '@chakra-ui/react';
import { Virtuoso } from 'react-virtuoso';
import type { ProjectorColumn as Column } from './projector-model';
import { ProjectorRow } from './projector-row';

/**
 * One level on the projector. Rows are virtualized, so thousands of teams cost only the rows on
 * screen; the list fills the column's height. Memoized: it renders only when its level's rows change.
 */
export const ProjectorColumn = memo(function ProjectorColumn({ column }: { column: Column }) {
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
      <Heading as="h2" px="4" py="3" fontSize="var(--projector-title)" bg="whiteAlpha.100">
        {column.title}{' '}
        <Text as="span" color="whiteAlpha.600" fontSize="var(--projector-small)">
          {column.teams.length} equipos
        </Text>
      </Heading>
      {column.teams.length === 0 ? (
        <Text px="4" py="3" fontSize="var(--projector-name)" color="whiteAlpha.700">
          No hay registros para mostrar
        </Text>
      ) : (
        <Box flex="1" minH="0">
          <Virtuoso
            style={{ height: '100%' }}
            data={column.teams}
            computeItemKey={(_index, team) => team.id}
            itemContent={(index, team) => (
              <ProjectorRow team={team} place={index + 1} maxAttempts={column.maxAttempts} />
            )}
          />
        </Box>
      )}
    </Box>
  );
});
