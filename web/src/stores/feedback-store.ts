/**
 * The catalogue screens' modal feedback (docs/spec.md sections 4, 5 and 8), one of each at a time: a message
 * with one button, a yes/no question answered through a promise, the 'Procesando…' dialog while a
 * request runs (with a percentage and 'Cancelar' for an upload), and the dialog of a failed list load.
 * Flows (save, delete, assign) and the query client call it; `FeedbackHost` renders it.
 */
import { create } from 'zustand';
import { MESSAGES } from '@concurso/shared';
import { onListFailure } from '../api/queries/list-failures';
import { onSessionEnd } from '../api/session-end';
import { useSessionStore } from './session-store';

/** A message dialog: title, text and its only button ('Listo!' by default). */
export interface MessageView {
  title: string;
  message: string;
  buttonLabel?: string;
}

/** A yes/no question. */
export interface QuestionView {
  title: string;
  message?: string;
  confirmLabel: string;
  cancelLabel?: string;
}

/** What a task under the progress dialog may tell it (an upload: how far it got, how to cancel it). */
export interface ProgressHandle {
  /** Shows the percentage done (0..100), or an indeterminate bar for null. */
  report: (percent: number | null) => void;
  /** Offers 'Cancelar' on the progress dialog; pressing it calls `cancel`. */
  cancellable: (cancel: () => void) => void;
}

/** The progress of the task that reported one; null percent while unknown. */
export interface TransferView {
  percent: number | null;
  cancel: (() => void) | null;
}

/** State and actions of the feedback store. */
export interface FeedbackStore {
  /** The last message; kept after closing so the closing animation keeps its text. */
  message: MessageView | null;
  messageOpen: boolean;
  question: QuestionView | null;
  questionOpen: boolean;
  /** Requests running under the progress dialog. */
  busy: number;
  /** The progress a running task reported (an upload); null for a plain request. */
  transfer: TransferView | null;
  /** The failed list load shown (docs/spec.md section 8: 'Advertencia', 'Error', 'Error de Conexión'); null when none. */
  listError: MessageView | null;
  /** Opens a message; ignored between an ended session and the next sign-in. */
  showMessage: (view: MessageView) => void;
  closeMessage: () => void;
  /**
   * Shows a failed list load, unless one is shown already (one dialog at a time: a second failure
   * while the first is open adds nothing) or the session ended.
   */
  showListError: (view: MessageView) => void;
  dismissListError: () => void;
  /** Asks and resolves true for the confirm button, false for cancel, Escape or an outside click. */
  ask: (view: QuestionView) => Promise<boolean>;
  answer: (yes: boolean) => void;
  /**
   * Runs `task` with the progress dialog open (an outside click does not close it). The task may report
   * its progress and offer a cancel through the handle it receives.
   */
  withProgress: <T>(task: (progress: ProgressHandle) => Promise<T>) => Promise<T>;
}

let resolveQuestion: ((yes: boolean) => void) | null = null;

export const useFeedbackStore = create<FeedbackStore>()((set) => ({
  message: null,
  messageOpen: false,
  question: null,
  questionOpen: false,
  busy: 0,
  transfer: null,
  listError: null,
  showMessage: (view) => {
    // A flow failing because the session ended would otherwise leave its error for the next session's
    // first catalogue screen; the login screen already says why.
    if (useSessionStore.getState().ended) return;
    set({ message: view, messageOpen: true });
  },
  closeMessage: () => set({ messageOpen: false }),
  showListError: (view) => {
    if (useSessionStore.getState().ended) return;
    set((state) => (state.listError ? state : { listError: view }));
  },
  dismissListError: () => set({ listError: null }),
  ask: (view) => {
    // A question still open is answered "no": only one at a time.
    resolveQuestion?.(false);
    return new Promise<boolean>((resolve) => {
      resolveQuestion = resolve;
      set({ question: view, questionOpen: true });
    });
  },
  answer: (yes) => {
    const resolve = resolveQuestion;
    resolveQuestion = null;
    set({ questionOpen: false });
    resolve?.(yes);
  },
  withProgress: async (task) => {
    set((state) => ({ busy: state.busy + 1 }));
    // The transfer shown belongs to the last task that reported one; only that task clears it.
    let mine: TransferView | null = null;
    const show = (change: Partial<TransferView>) => {
      mine = { percent: mine?.percent ?? null, cancel: mine?.cancel ?? null, ...change };
      set({ transfer: mine });
    };
    const progress: ProgressHandle = {
      report: (percent) => show({ percent: percent === null ? null : Math.max(0, Math.min(100, percent)) }),
      cancellable: (cancel) => show({ cancel }),
    };
    try {
      return await task(progress);
    } finally {
      set((state) => ({
        busy: Math.max(0, state.busy - 1),
        transfer: mine !== null && state.transfer === mine ? null : state.transfer,
      }));
    }
  },
}));

// An ended session's open message, question and list failure are dropped (a question answers "no").
// A catalogue list that failed to load opens the list-failure dialog (the query client reports it).
onListFailure((view) => useFeedbackStore.getState().showListError(view));

onSessionEnd(() => {
  useFeedbackStore.getState().answer(false);
  useFeedbackStore.getState().closeMessage();
  useFeedbackStore.getState().dismissListError();
});

/** The invalid-submit warning of docs/spec.md section 5: 'Información' / 'Por favor llene…' / 'Listo!'. */
export const INVALID_FORM_MESSAGE: MessageView = {
  title: MESSAGES.info,
  message: MESSAGES.validation,
  buttonLabel: MESSAGES.ok,
};
