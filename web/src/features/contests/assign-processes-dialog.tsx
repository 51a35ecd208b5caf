import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { Virtuoso } from 'react-virtuoso';
import { MESSAGES, contestsRoutes, type BlockedProcessesInput, type ContestRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useCatalogRows } from '../../api/queries/catalog-queries';
import { describeListError } from '../../api/queries/list-errors';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { useFeedbackStore } from '../../stores/feedback-store';
import { toaster } from '../../ui/toaster';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { FormButtons } from '../../ui/form/form-buttons';
import { contestWithDate } from '../../catalog-screen/contest-options';
import { contestProcessesQuery } from './contest-processes-query';
import { ProcessCheckbox } from './process-checkbox';
import { filterProcesses, selectedSummary } from './process-selection';

/** Height of one process row in the list (px), for sizing a short list without empty space. */
const OPTION_HEIGHT = 32;

/** `POST /api/createBlockedProcessForContest` (`contestsRoutes.replaceBlockedProcesses`). */
const replaceBlocked = (body: BlockedProcessesInput) =>
  callApi(contestsRoutes.replaceBlockedProcesses, { body });
/** The contest's 'Ver procesos' list, stale once the set is saved. */
const blockedKeyOf = (body: BlockedProcessesInput) => contestProcessesQuery(body.contests_id).queryKey;

/** Props of {@link AssignProcessesDialog}. */
export interface AssignProcessesDialogProps {
  contest: ContestRow | null;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Asignar procesos bloqueados al concurso': every process as a searchable checkbox list, preselected
 * with the contest's current set (read afresh at each opening: the form's starting values), 'Seleccionaste: '
 * with the chosen names (in the footer, always in view, issue 14); saving replaces the set (SPEC.md sections 2 and 5: no validation; failure
 * 'Hubo un problema al registrar los procesos').
 */
export function AssignProcessesDialog({ contest, open, onClose }: AssignProcessesDialogProps) {
  const queryClient = useQueryClient();
  const processes = useCatalogRows('processes');
  const saveBlocked = useInvalidatingMutation(replaceBlocked, blockedKeyOf);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);
  const contestId = contest?.id ?? null;

  useEffect(() => {
    if (!open || contestId === null) return;
    let current = true;
    setLoadedFor(null);
    setSearch('');
    // Always a fresh read (the cached set is stale at once), shared with 'Ver procesos' when both load.
    queryClient
      .fetchQuery(contestProcessesQuery(contestId))
      .then((rows) => {
        if (!current) return;
        setSelected(new Set(rows.map((row) => row.processes_id)));
        setLoadedFor(contestId);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setSelected(new Set());
        setLoadedFor(contestId);
        const view = describeListError(error);
        useFeedbackStore.getState().showMessage({ title: view.title, message: view.message });
      });
    return () => {
      current = false;
    };
  }, [open, contestId, queryClient]);

  const sorted = useMemo(() => filterProcesses(processes.rows, ''), [processes.rows]);
  const visible = useMemo(() => filterProcesses(processes.rows, search), [processes.rows, search]);
  const ready = loadedFor !== null && loadedFor === contestId && processes.loaded;

  const toggle = useCallback(
    (id: number, checked: boolean) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (checked) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );

  async function save() {
    if (contestId === null || saving) return;
    setSaving(true);
    const feedback = useFeedbackStore.getState();
    try {
      // Only ids still in the catalogue: a process deleted meanwhile would be refused.
      const known = new Set(processes.rows.map((process) => process.id));
      const answer = await feedback.withProgress(() =>
        saveBlocked({ contests_id: contestId, processes_id: [...selected].filter((id) => known.has(id)) }),
      );
      toaster.create({ type: 'success', title: answer.message || MESSAGES.created, duration: 2500 });
      onClose();
    } catch (error) {
      console.error('No se pudieron asignar los procesos', error);
      feedback.showMessage({ title: MESSAGES.error, message: MESSAGES.processesAssignFailed });
    } finally {
      setSaving(false);
    }
  }

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={saving}
      title="Asignar procesos bloqueados al concurso"
      size="lg"
      scrollBehavior="inside"
      footer={
        // 'Seleccionaste:' sits in the footer, over the buttons (issue 14): at the end of the scrolling
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
              onSave={() => void save()}
              saveDisabled={!ready}
            />
          </HStack>
        </Stack>
      }
    >
      <Stack gap="3">
        <Text color="fg.muted">Concurso {contest ? contestWithDate(contest) : ''}</Text>
        <Input
          type="search"
          size="sm"
          aria-label="Buscar proceso"
          placeholder="Buscar proceso…"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <HStack gap="2">
          <Button
            size="xs"
            variant="outline"
            disabled={!ready}
            onClick={() => setSelected((previous) => new Set([...previous, ...visible.map((p) => p.id)]))}
          >
            Marcar los mostrados
          </Button>
          <Button size="xs" variant="outline" disabled={!ready} onClick={() => setSelected(new Set())}>
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
