import { List } from '@chakra-ui/react';
import { MESSAGES, type ContestProcessRow, type ContestRow } from '@concurso/shared';
import { ListDialog } from '../../catalog-screen/list-dialog';
import { contestWithDate } from '../../catalog-screen/contest-options';
import { contestProcessesQuery } from './contest-processes-query';

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
      title={`Procesos bloqueados del concurso ${contest ? contestWithDate(contest) : ''}`}
      query={contest ? contestProcessesQuery(contest.id) : null}
      emptyText={MESSAGES.noProcesses}
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
