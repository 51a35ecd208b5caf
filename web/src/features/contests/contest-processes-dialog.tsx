import { List } from '@chakra-ui/react';
import { MESSAGES, contestsRoutes, type ContestProcessRow, type ContestRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { ListDialog } from '../../catalog-screen/list-dialog';

/** Props of {@link ContestProcessesDialog}. */
export interface ContestProcessesDialogProps {
  /** The contest shown; kept while the dialog closes so its text does not vanish. */
  contest: ContestRow | null;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Ver procesos': the processes blocked for a contest, or 'No se encontraron procesos.'. Refetches while
 * open when another admin changes the set (or a process name).
 */
export function ContestProcessesDialog({ contest, open, onClose }: ContestProcessesDialogProps) {
  return (
    <ListDialog<ContestProcessRow>
      open={open}
      onClose={onClose}
      testId="contest-processes-dialog"
      title={`Procesos bloqueados del concurso ${contest?.calendar ?? ''} (${contest?.date ?? ''})`}
      listKey={contest ? String(contest.id) : null}
      fetchRows={(signal) =>
        callApi(contestsRoutes.blockedProcesses, { params: { contestId: contest!.id }, signal })
      }
      follows="contest_processes"
      emptyText={MESSAGES.noProcesses}
      what="los procesos del concurso"
    >
      {(rows) => (
        <List.Root as="ol" ps="5" gap="1">
          {rows.map((row) => (
            <List.Item key={row.id}>{row.processes?.name ?? ''}</List.Item>
          ))}
        </List.Root>
      )}
    </ListDialog>
  );
}
