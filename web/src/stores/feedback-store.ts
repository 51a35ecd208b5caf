/**
 * The catalogue screens' modal feedback (SPEC.md sections 4, 5 and 8), one of each at a time: a message
 * with one button, a yes/no question answered through a promise, and the 'Procesando…' dialog while a
 * request runs. Flows (save, delete, assign) call it; `FeedbackHost` renders it.
 */
import { create } from 'zustand';
import { MESSAGES } from '@concurso/shared';

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

/** State and actions of the feedback store. */
export interface FeedbackStore {
  /** The last message; kept after closing so the closing animation keeps its text. */
  message: MessageView | null;
  messageOpen: boolean;
  question: QuestionView | null;
  questionOpen: boolean;
  /** Requests running under the progress dialog. */
  busy: number;
  showMessage: (view: MessageView) => void;
  closeMessage: () => void;
  /** Asks and resolves true for the confirm button, false for cancel, Escape or an outside click. */
  ask: (view: QuestionView) => Promise<boolean>;
  answer: (yes: boolean) => void;
  /** Runs `task` with the progress dialog open (an outside click does not close it). */
  withProgress: <T>(task: () => Promise<T>) => Promise<T>;
}

let resolveQuestion: ((yes: boolean) => void) | null = null;

export const useFeedbackStore = create<FeedbackStore>()((set) => ({
  message: null,
  messageOpen: false,
  question: null,
  questionOpen: false,
  busy: 0,
  showMessage: (view) => set({ message: view, messageOpen: true }),
  closeMessage: () => set({ messageOpen: false }),
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
    try {
      return await task();
    } finally {
      set((state) => ({ busy: Math.max(0, state.busy - 1) }));
    }
  },
}));

/** The invalid-submit warning of SPEC.md section 5: 'Información' / 'Por favor llene…' / 'Listo!'. */
export const INVALID_FORM_MESSAGE: MessageView = {
  title: MESSAGES.info,
  message: MESSAGES.validation,
  buttonLabel: MESSAGES.ok,
};
