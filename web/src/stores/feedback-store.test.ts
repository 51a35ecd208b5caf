import { describe, expect, it } from 'vitest';
import { useFeedbackStore } from './feedback-store';

describe('feedback store', () => {
  it('answers a question through its promise', async () => {
    const question = useFeedbackStore
      .getState()
      .ask({ title: '¿Está seguro?', confirmLabel: 'Sí, eliminar' });
    expect(useFeedbackStore.getState().questionOpen).toBe(true);
    useFeedbackStore.getState().answer(true);
    await expect(question).resolves.toBe(true);
    expect(useFeedbackStore.getState().questionOpen).toBe(false);
  });

  it('answers "no" to a question replaced by another', async () => {
    const first = useFeedbackStore.getState().ask({ title: 'Uno', confirmLabel: 'Sí' });
    const second = useFeedbackStore.getState().ask({ title: 'Dos', confirmLabel: 'Sí' });
    await expect(first).resolves.toBe(false);
    useFeedbackStore.getState().answer(false);
    await expect(second).resolves.toBe(false);
  });

  it('keeps the progress dialog open while any request runs, also when one fails', async () => {
    const store = useFeedbackStore.getState();
    let finish: () => void = () => undefined;
    const slow = store.withProgress(() => new Promise<void>((resolve) => (finish = resolve)));
    const failing = store.withProgress(() => Promise.reject(new Error('x')));
    await expect(failing).rejects.toThrow('x');
    expect(useFeedbackStore.getState().busy).toBe(1);
    finish();
    await slow;
    expect(useFeedbackStore.getState().busy).toBe(0);
  });

  it('keeps the last message text while the dialog closes', () => {
    useFeedbackStore.getState().showMessage({ title: 'Error', message: 'Algo' });
    useFeedbackStore.getState().closeMessage();
    expect(useFeedbackStore.getState().messageOpen).toBe(false);
    expect(useFeedbackStore.getState().message?.message).toBe('Algo');
  });

  it('shows an upload’s percentage and its cancel while it runs, and forgets them when it ends', async () => {
    const store = useFeedbackStore.getState();
    const cancel = () => undefined;
    let finish: () => void = () => undefined;
    const upload = store.withProgress(async (progress) => {
      progress.cancellable(cancel);
      progress.report(0);
      progress.report(42);
      await new Promise<void>((resolve) => (finish = resolve));
    });
    expect(useFeedbackStore.getState().transfer).toEqual({ percent: 42, cancel });
    useFeedbackStore.getState().transfer?.cancel?.();
    finish();
    await upload;
    expect(useFeedbackStore.getState().transfer).toBeNull();
    expect(useFeedbackStore.getState().busy).toBe(0);
  });

  it('shows no transfer for a plain request, and clamps the percentage', async () => {
    const store = useFeedbackStore.getState();
    await store.withProgress(async () => {
      expect(useFeedbackStore.getState().transfer).toBeNull();
    });
    await store.withProgress(async (progress) => {
      progress.report(140);
      expect(useFeedbackStore.getState().transfer?.percent).toBe(100);
      progress.report(null);
      expect(useFeedbackStore.getState().transfer?.percent).toBeNull();
    });
  });
});
