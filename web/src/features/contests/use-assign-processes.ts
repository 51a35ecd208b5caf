import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type BlockedProcessesInput, type ContestRow } from '@concurso/shared';
import { useCatalogRows } from '../../api/queries/catalog-queries';
import { describeListError } from '../../api/queries/list-errors';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { useFeedbackStore } from '../../stores/feedback-store';
import { toaster } from '../../ui/toaster';
import { filterProcesses } from './process-selection';
import { BLOCKED_SET, type ProcessSet } from './process-sets';

/**
 * The state of 'Asignar procesos bloqueados al concurso' (docs/spec.md sections 2 and 5), or of another
 * `set` of the contest's processes («Programas permitidos», `process-sets.ts`): the chosen ids, read
 * afresh from the contest's set at each opening; the search and the processes it shows; `save`, which
 * replaces the set (only ids still in the catalogue) under 'Procesando…' and closes with a toast, or
 * says why not (`set.failure`: 'Hubo un problema al registrar los procesos' for the blocked set).
 */
export function useAssignProcesses(
  contest: ContestRow | null,
  open: boolean,
  onClose: () => void,
  set: ProcessSet = BLOCKED_SET,
) {
  const queryClient = useQueryClient();
  const processes = useCatalogRows('processes');
  // The set's own list (the contest's 'Ver procesos' for the blocked one) is stale once saved.
  const saveSet = useInvalidatingMutation(
    set.save,
    (body: BlockedProcessesInput) => set.query(body.contests_id).queryKey,
  );
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
      .fetchQuery(set.query(contestId))
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
  }, [open, contestId, queryClient, set]);

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

  const save = async () => {
    if (contestId === null || saving) return;
    setSaving(true);
    const feedback = useFeedbackStore.getState();
    try {
      // Only ids still in the catalogue: a process deleted meanwhile would be refused.
      const known = new Set(processes.rows.map((process) => process.id));
      const answer = await feedback.withProgress(() =>
        saveSet({ contests_id: contestId, processes_id: [...selected].filter((id) => known.has(id)) }),
      );
      toaster.create({ type: 'success', title: answer.message || MESSAGES.created, duration: 2500 });
      onClose();
    } catch (error) {
      console.error('No se pudieron asignar los procesos', error);
      feedback.showMessage({ title: MESSAGES.error, message: set.failure(error) });
    } finally {
      setSaving(false);
    }
  };

  const markShown = () => setSelected((previous) => new Set([...previous, ...visible.map((p) => p.id)]));
  const clear = () => setSelected(new Set());
  return { selected, toggle, search, setSearch, sorted, visible, ready, saving, save, markShown, clear };
}
