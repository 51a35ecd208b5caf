import { Box, Button, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { Virtuoso } from 'react-virtuoso';
import { MESSAGES, type ContestRow } from '@concurso/shared';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { FormButtons } from '../../ui/form/form-buttons';
import { contestWithDate } from '../../catalog-screen/contest-options';
import { ProcessCheckbox } from './process-checkbox';
import { selectedSummary } from './process-selection';
import { BLOCKED_SET, type ProcessSet } from './process-sets';
import { useAssignProcesses } from './use-assign-processes';

/** Height of one process row in the list (px), for sizing a short list without empty space. */
const OPTION_HEIGHT = 32;

/** Props of {@link AssignProcessesDialog}. */
export interface AssignProcessesDialogProps {
  contest: ContestRow | null;
  open: boolean;
  onClose: () => void;
  /** Which of the contest's sets it edits: the blocked one (default) or «Programas permitidos». */
  set?: ProcessSet;
}

/**
 * 'Asignar procesos bloqueados al concurso': every process as a searchable checkbox list, preselected
 * with the contest's current set (read afresh at each opening: the form's starting values), 'Seleccionaste: '
 * with the chosen names (in the footer, always in view); saving replaces the set (docs/spec.md sections 2 and 5: no validation; failure
 * 'Hubo un problema al registrar los procesos'). With `set` = `PERMITTED_SET`, the same dialog edits
 * the contest's «Programas permitidos» (docs/design.md section 6a).
 */
export function AssignProcessesDialog({
  contest,
  open,
  onClose,
  set = BLOCKED_SET,
}: AssignProcessesDialogProps) {
  const form = useAssignProcesses(contest, open, onClose, set);
  const { selected, toggle, search, setSearch, sorted, visible, ready, saving } = form;

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={saving}
      title={set.title}
      size="lg"
      scrollBehavior="inside"
      footer={
        // 'Seleccionaste:' sits in the footer, over the buttons: at the end of the scrolling
        // body a long choice hid it behind the footer. Long, it scrolls within a few lines of its own.
        <Stack gap="3" w="full">
          <Text
            data-testid="selected-processes"
            fontWeight="medium"
            maxH="4.5em"
            overflowY="auto"
            role="region"
            aria-label="Procesos seleccionados"
            // Reachable by keyboard when it scrolls (axe: scrollable-region-focusable).
            tabIndex={0}
          >
            {selectedSummary(sorted, selected)}
          </Text>
          <HStack gap="3" justify="flex-end">
            <FormButtons
              onCancel={onClose}
              saving={saving}
              onSave={() => void form.save()}
              saveDisabled={!ready}
            />
          </HStack>
        </Stack>
      }
    >
      <Stack gap="3">
        <Text color="fg.muted">Concurso {contest ? contestWithDate(contest) : ''}</Text>
        {set.lead ? <Text fontSize="sm">{set.lead}</Text> : null}
        <Input
          type="search"
          size="sm"
          aria-label="Buscar proceso"
          placeholder="Buscar proceso…"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <HStack gap="2">
          <Button size="xs" variant="outline" disabled={!ready} onClick={form.markShown}>
            Marcar los mostrados
          </Button>
          <Button size="xs" variant="outline" disabled={!ready} onClick={form.clear}>
            Quitar todos
          </Button>
        </HStack>
        <Box
          role="group"
          aria-label="Procesos"
          borderWidth="1px"
          rounded="md"
          px="3"
          py="2"
          data-testid="process-options"
        >
          {!ready ? (
            <Spinner size="sm" aria-label="Cargando…" />
          ) : visible.length === 0 ? (
            <Text color="fg.muted">{MESSAGES.noProcesses}</Text>
          ) : (
            // Virtualised: a catalogue may hold thousands of processes.
            <Virtuoso
              style={{ height: Math.min(300, visible.length * OPTION_HEIGHT) }}
              data={visible}
              computeItemKey={(_, process) => process.id}
              itemContent={(_, process) => (
                <ProcessCheckbox process={process} checked={selected.has(process.id)} onToggle={toggle} />
              )}
            />
          )}
        </Box>
      </Stack>
    </AppDialog>
  );
}
