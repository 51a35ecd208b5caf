import { useCallback, useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Alert, Button, Flex, Link, SimpleGrid, Stack } from '@chakra-ui/react';
import { BOARD_LEVEL_KEYS, MESSAGES, type BoardTeam } from '@concurso/shared';
import { PROJECTOR_PATH } from '../../app/paths';
import { MessagesButton } from '../../catalog-screen/messages/messages-button';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import { useTeamStatusToggle } from './use-team-status-toggle';
import { TeamHistoryDialog } from './team-history-dialog';
import { teamsOfLevel } from '../../stores/board-state';
import { useBoardStore } from '../../stores/board-store';
import { BoardTable } from './board-table';
import { ConfirmDialog } from '../../ui/dialog/confirm-dialog';
import { ConnectionIndicator } from '../../ui/connection-indicator';
import { ContestSummary } from './contest-summary';
import { SoundAlertSwitch } from './sound-alert-switch';
import { NoActiveContestNotice } from '../../ui/layout/notice';
import { FullPageSpinner } from '../../ui/layout/full-page-spinner';
import { MessageDialog } from '../../ui/dialog/message-dialog';
import { ProgressDialog } from '../../ui/dialog/progress-dialog';

/**
 * The live board shared by /home and /homeJuez: the active contest, "Alerta sonora", the
 * connection state and the three level tables (or `MESSAGES.noActiveContest` when none is active), kept current by the board
 * store while mounted.
 */
export function LiveBoard() {
  // One subscription; a shallow compare re-renders only when one of these fields changes.
  const { teams, contest, connection, loaded, error } = useBoardStore(
    useShallow(({ teams, contest, connection, loaded, error }) => ({
      teams,
      contest,
      connection,
      loaded,
      error,
    })),
  );
  const toggle = useTeamStatusToggle();
  // The row last shown stays while the dialog closes, so its title does not vanish.
  const history = useRowDialog<BoardTeam, 'history'>();
  const { show } = history;
  // Stable, so the memoized rows keep it.
  const showHistory = useCallback((team: BoardTeam) => show('history', team), [show]);

  useEffect(() => {
    const board = useBoardStore.getState();
    board.start();
    return () => board.stop();
  }, []);

  const levels = useMemo(
    () => BOARD_LEVEL_KEYS.map((level) => ({ level, teams: teamsOfLevel(teams, level) })),
    [teams],
  );

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <ContestSummary contest={contest} />
        <Flex align="center" gap="4" wrap="wrap">
          <SoundAlertSwitch />
          {contest ? <MessagesButton teams={Object.values(teams)} /> : null}
          {/* A new tab, so the judge's own board stays open. */}
          <Link href={PROJECTOR_PATH} target="_blank" rel="noopener" colorPalette="blue" fontWeight="medium">
            Abrir proyector
          </Link>
          <ConnectionIndicator state={connection} />
        </Flex>
      </Flex>

      {error ? (
        <Alert.Root status="error" alignItems="center">
          <Alert.Indicator />
          <Alert.Title flex="1">{error}</Alert.Title>
          <Button size="sm" variant="outline" onClick={() => void useBoardStore.getState().refresh()}>
            Reintentar
          </Button>
        </Alert.Root>
      ) : null}

      {/* No active contest: say so instead of three empty tables; a failed load says its own. */}
      {loaded && !contest && !error ? (
        <NoActiveContestNotice />
      ) : loaded ? (
        <SimpleGrid columns={{ base: 1, xl: 3 }} gap="6" alignItems="start">
          {levels.map(({ level, teams: rows }) => (
            <BoardTable
              key={level}
              level={level}
              teams={rows}
              onToggle={toggle.request}
              onHistory={showHistory}
            />
          ))}
        </SimpleGrid>
      ) : (
        <FullPageSpinner label="Cargando tablero…" />
      )}

      <ConfirmDialog
        open={toggle.asking}
        title={MESSAGES.confirmStatusChange}
        message={toggle.target ? `Equipo: ${toggle.target.name}` : undefined}
        onConfirm={() => void toggle.confirm()}
        onCancel={toggle.cancel}
      />
      <ProgressDialog open={toggle.processing} />
      <TeamHistoryDialog team={history.row} open={history.open === 'history'} onClose={history.close} />
      <MessageDialog
        open={toggle.error !== null}
        title={MESSAGES.error}
        message={toggle.error ?? ''}
        onClose={toggle.dismissError}
      />
    </Stack>
  );
}
