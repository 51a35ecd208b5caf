import { Box, Heading, Table } from '@chakra-ui/react';
import { BOARD_LEVEL_TITLES, MESSAGES, type BoardLevelKey, type BoardTeam } from '@concurso/shared';
import { BoardRow } from './board-row';

/** Props of {@link BoardTable}. */
export interface BoardTableProps {
  level: BoardLevelKey;
  /** The level's teams, already sorted. */
  teams: readonly BoardTeam[];
  onToggle: (team: BoardTeam) => void;
  /** Opens a team's 'Historial'. */
  onHistory: (team: BoardTeam) => void;
}

/** One level's table of the live board: NOMBRE, INTENTOS, ACCIONES (docs/spec.md section 2; plus 'Historial'). */
export function BoardTable({ level, teams, onToggle, onHistory }: BoardTableProps) {
  const titleId = `board-title-${level}`;
  return (
    <Box as="section" aria-labelledby={titleId}>
      <Heading as="h2" id={titleId} size="md" mb="2">
        {BOARD_LEVEL_TITLES[level]}
      </Heading>
      <Table.ScrollArea borderWidth="1px" rounded="md" bg="bg">
        <Table.Root size="sm" data-testid={`board-${level}`} aria-labelledby={titleId}>
          <Table.Header>
            <Table.Row bg="bg.muted">
              {/* NOMBRE takes what INTENTOS and ACCIONES leave (they are as wide as their content,
                  `w=1%`), so a long name wraps instead of pushing them out of the column. */}
              <Table.ColumnHeader w="full">NOMBRE</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" w="1%" whiteSpace="nowrap">
                INTENTOS
              </Table.ColumnHeader>
              <Table.ColumnHeader w="1%" whiteSpace="nowrap">
                ACCIONES
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {teams.length === 0 ? (
              <Table.Row>
                <Table.Cell colSpan={3} textAlign="center" color="fg.muted" py="4">
                  {MESSAGES.noTeams}
                </Table.Cell>
              </Table.Row>
            ) : (
              teams.map((team) => (
                <BoardRow key={team.id} team={team} onToggle={onToggle} onHistory={onHistory} />
              ))
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Box>
  );
}
