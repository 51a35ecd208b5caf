import { memo, useMemo } from 'react';
import { Badge, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import {
  TEAM_STATUS,
  TEAM_STATUS_NAMES,
  agentBadgeText,
  isAgentAlarm,
  type BoardTeam,
} from '@concurso/shared';
import { fetchCaptureImage, screenOf } from '../../api/capture-api';
import { describeError } from '../../api/api-error';
import { ViewScreenButton } from '../../ui/captures/view-screen-button';
import { NewProgramBadge } from './new-program-badge';

/** Props of {@link BoardRow}. */
export interface BoardRowProps {
  team: BoardTeam;
  onToggle: (team: BoardTeam) => void;
  /** Opens the team's 'Historial'. */
  onHistory: (team: BoardTeam) => void;
}

/**
 * One team on the live board: name with its status and agent badges (and «Programa nuevo» while a
 * program no other team ran started recently), attempts, the
 * 'Bloquear' (status 1) or 'Desbloquear' (any other status) button (docs/spec.md section 2) and
 * 'Historial' (its attempts and status changes) and, while its agent is online, «Ver pantalla» (a
 * fresh capture of its machines' screens; the board is the active contest's, seen by judges and admins).
 * Memoized: an event re-renders only the row it changed.
 */
export const BoardRow = memo(function BoardRow({ team, onToggle, onHistory }: BoardRowProps) {
  const active = team.status_team.id === TEAM_STATUS.active;
  const statusName = TEAM_STATUS_NAMES[team.status_team.id] ?? team.status_team.status;
  const agentText = agentBadgeText(team);
  // The alarms (the tamper alert, and a stop of the active contest not resumed within the
  // window) stand out; a documented stop still within the window is only marked.
  const alarm = isAgentAlarm(team.agent_alert);
  const askScreen = useMemo(() => screenOf(team.id), [team.id]);
  const agentPalette = team.agent_online
    ? 'green'
    : alarm
      ? 'red'
      : team.agent_alert === 'detenido'
        ? 'orange'
        : 'gray';

  return (
    <Table.Row
      data-testid={`team-row-${team.id}`}
      data-status={team.status_team.id}
      bg={active ? undefined : 'red.subtle'}
    >
      {/* Table.ScrollArea sets `nowrap` for every cell: the name's cell wraps again. */}
      <Table.Cell whiteSpace="normal">
        <Stack gap="1">
          {/* `anywhere`: even one word longer than the column breaks instead of widening it. */}
          <Text
            data-testid="team-name"
            fontWeight="medium"
            overflowWrap="anywhere"
            textDecoration={active ? undefined : 'line-through'}
          >
            {team.name}
          </Text>
          {/* The badges wrap rather than shorten (a blocked row cut the agent's to 'Agent…');
              `w=0 minW=full`: they take the cell's width without widening the column. */}
          <HStack gap="1" wrap="wrap" w="0" minW="full" data-testid="row-badges">
            {active ? null : (
              <Badge colorPalette="red" variant="solid">
                {statusName}
              </Badge>
            )}
            <Badge
              colorPalette={agentPalette}
              variant={alarm ? 'solid' : 'outline'}
              data-agent-online={team.agent_online}
              data-agent-alert={team.agent_alert ?? undefined}
            >
              {agentText}
            </Badge>
            <NewProgramBadge mark={team.new_program} />
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
        {/* One above the other on a phone, so the name keeps room; never wrapped by chance:
            'Desbloquear' is wider than 'Bloquear', and a pair that wrapped on some rows only was uneven.
            «Ver pantalla» goes on a line of its own: a third button beside them widened the column
            enough to squeeze the name's badges out of their cell with three levels side by side. */}
        <Stack gap="1" alignItems="flex-start">
          <Stack direction={{ base: 'column', sm: 'row' }} gap="1">
            <Button size="xs" colorPalette={active ? 'red' : 'green'} onClick={() => onToggle(team)}>
              {active ? 'Bloquear' : 'Desbloquear'}
            </Button>
            <Button size="xs" variant="outline" onClick={() => onHistory(team)}>
              Historial
            </Button>
          </Stack>
          {team.agent_online ? (
            <ViewScreenButton
              target={`Equipo ${team.name}`}
              ask={askScreen}
              load={fetchCaptureImage}
              errorText={describeError}
              testId={`view-screen-${team.id}`}
            />
          ) : null}
        </Stack>
      </Table.Cell>
    </Table.Row>
  );
});
