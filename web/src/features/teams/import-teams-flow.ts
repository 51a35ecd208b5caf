import { useCallback, useEffect, useState } from 'react';
import { IMPORT_MESSAGES, MESSAGES, type ImportPreview } from '@concurso/shared';
import { describeError } from '../../api/api-error';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { isAbortError, type UploadOptions } from '../../api/upload-request';
import { useFeedbackStore } from '../../stores/feedback-store';
import { importTeams, previewTeamImport } from './import-api';
import { canImport, importFileProblem, rejectedImportErrors } from './import-preview';

/** What the 'Importar' dialog shows and does; see {@link useImportTeams}. */
export interface ImportTeamsFlow {
  /** The chosen contest, as a select value ('' while none). */
  contestId: string;
  chooseContest: (value: string) => void;
  file: File | null;
  chooseFile: (file: File | null) => void;
  /** Why the chosen file is not sent (its name or size), or why the server refused it. */
  problem: string | null;
  /** The preview of the chosen file and contest; null before it answers. */
  preview: ImportPreview | null;
  previewing: boolean;
  /** True while the import runs (its progress and 'Cancelar' are the feedback store's dialog). */
  importing: boolean;
  /** True when 'Importar N equipos' may be pressed. */
  ready: boolean;
  /** Sends the import; on success closes the dialog and reports 'Se importaron N equipos.'. */
  runImport: () => Promise<void>;
}

/** The import as a mutation: the teams list (and its screen) refetches once it settles. */
const sendImport = (contestId: number, file: File, options: UploadOptions) =>
  importTeams(contestId, file, options);
const teamsKey = () => catalogListKey('teams');

/**
 * The state of the 'Importar' dialog: each opening starts with the active contest chosen
 * (`activeContest`) and no file; choosing a file or another contest runs the preview (the previous one
 * aborted), which writes nothing; the import re-sends the file with its upload percentage and
 * 'Cancelar' on the feedback store's progress dialog (`withProgress`, as the exercises' PDF upload),
 * and on success closes the dialog (`onClose`) with 'Se importaron N equipos.' while the teams list
 * refetches. 'Cancelar' aborts the request: the server imports in one transaction, so a request cut
 * before its answer writes all or nothing; the dialog stays with its preview. A 422 with bad rows
 * (something changed since the preview) shows them in place of the preview's.
 */
export function useImportTeams(open: boolean, activeContest: string, onClose: () => void): ImportTeamsFlow {
  const [contestId, setContestId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [importing, setImporting] = useState(false);
  const runImportMutation = useInvalidatingMutation(sendImport, teamsKey);

  // Every opening starts over: no file, and the active contest chosen (below).
  useEffect(() => {
    if (!open) return;
    setContestId('');
    setFile(null);
    setProblem(null);
    setPreview(null);
  }, [open]);
  // The active contest, once the contests list has it, unless the admin chose one already.
  useEffect(() => {
    if (open) setContestId((current) => current || activeContest);
  }, [open, activeContest]);

  // The preview of the chosen file and contest; a newer choice aborts the one in flight.
  useEffect(() => {
    setPreview(null);
    if (!open || !file || !contestId) return;
    const local = importFileProblem(file);
    setProblem(local);
    if (local) return;
    const controller = new AbortController();
    setPreviewing(true);
    previewTeamImport(Number(contestId), file, { signal: controller.signal })
      .then((answer) => setPreview(answer.data))
      .catch((error: unknown) => {
        if (!isAbortError(error)) setProblem(describeError(error));
      })
      .finally(() => {
        if (!controller.signal.aborted) setPreviewing(false);
      });
    return () => {
      controller.abort();
      setPreviewing(false);
    };
  }, [open, file, contestId]);

  const chooseFile = useCallback((chosen: File | null) => {
    setProblem(null);
    setFile(chosen);
  }, []);
  const chooseContest = useCallback((value: string) => {
    setProblem(null);
    setContestId(value);
  }, []);

  const runImport = useCallback(async () => {
    if (!file || !contestId) return;
    setImporting(true);
    try {
      const answer = await useFeedbackStore.getState().withProgress((progress) => {
        const controller = new AbortController();
        progress.cancellable(() => controller.abort());
        return runImportMutation(Number(contestId), file, {
          signal: controller.signal,
          onProgress: progress.report,
        });
      });
      onClose();
      // Where a mistaken import is undone.
      useFeedbackStore
        .getState()
        .showMessage({ title: MESSAGES.correct, message: `${answer.message} ${IMPORT_MESSAGES.undoHint}` });
    } catch (error) {
      // Cancelled: nothing to say, the preview stays and the import may be sent again.
      if (isAbortError(error)) return;
      const rows = rejectedImportErrors(error);
      if (rows) setPreview((shown) => (shown ? { ...shown, errors: rows } : shown));
      else setProblem(describeError(error));
    } finally {
      setImporting(false);
    }
  }, [file, contestId, runImportMutation, onClose]);

  return {
    contestId,
    chooseContest,
    file,
    chooseFile,
    problem,
    preview,
    previewing,
    importing,
    ready: canImport(preview) && !previewing && !importing && problem === null,
    runImport,
  };
}
