import { memo } from 'react';
import { Badge, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { TEAM_STATUS, TEAM_STATUS_NAMES, type BoardTeam } from '@concurso/shared';

/** Props of {@link BoardRow}. */
export interface BoardRowProps {
  team: BoardTeam;
  onToggle: (team: BoardTeam) => void;
  /** Opens the team's 'Historial' (issue 13). */
  onHistory: (team: BoardTeam) => void;
}

/**
 * One team on the live board: name with its status and agent badges, attempts, the
 * 'Bloquear' (status 1) or 'Desbloquear' (any other status) button (SPEC.md section 2) and
 * 'Historial' (its attempts and status changes, issue 13).
 * Memoized: an event re-renders only the row it changed.
 */
export const BoardRow = memo(function BoardRow({ team, onToggle, onHistory }: BoardRowProps) {
  const active = team.status_team.id === TEAM_STATUS.active;
  const statusName = TEAM_STATUS_NAMES[team.status_team.id] ?? team.status_team.status;
  const agentText = team.agent_online ? 'Agente en línea' : 'Agente sin conexión';

  return (
    <Table.Row
      data-testid={`team-row-${team.id}`}
      data-status={team.status_team.id}
      bg={active ? undefined : 'red.subtle'}
    >
      <Table.Cell>
        <Stack gap="1">
          <Text fontWeight="medium" textDecoration={active ? undefined : 'line-through'}>
            {team.name}
          </Text>
          {/* One line of badges on every row, so every row is one height (issue 14: a disqualified
              row's two badges wrapped). `w=0 minW=full`: the line takes the cell's width without
              widening the column; what does not fit ends in '…' (the full text is the title). */}
          <HStack gap="2" wrap="nowrap" w="0" minW="full" overflow="hidden" data-testid="row-badges">
            {active ? null : (
              <Badge colorPalette="red" variant="solid" flexShrink={0}>
                {statusName}
              </Badge>
            )}
            <Badge
              colorPalette={team.agent_online ? 'green' : 'gray'}
              variant="outline"
              data-agent-online={team.agent_online}
              minW="0"
              title={agentText}
            >
              <Text as="span" truncate>
                {agentText}
              </Text>
            </Badge>
          </HStack>
        </Stack>
      </Table.Cell>
      <Table.Cell
        data-testid={`attempts-${team.id}`}
        textAlign="end"
        fontVariantNumeric="tabular-nums"
        fontWeight="semibold"
      >
        {team.number_attempts}
      </Table.Cell>
      <Table.Cell>
        {/* Never wrapped: 'Desbloquear' is wider than 'Bloquear', and a wrapped pair made that row taller. */}
        <HStack gap="1" wrap="nowrap">
          <Button size="xs" colorPalette={active ? 'red' : 'green'} onClick={() => onToggle(team)}>
            {active ? 'Bloquear' : 'Desbloquear'}
          </Button>
          <Button size="xs" variant="outline" onClick={() => onHistory(team)}>
            Historial
          </Button>
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
});
