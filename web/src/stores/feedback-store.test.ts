import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSession } from '../api/session-end';
import { useFeedbackStore } from './feedback-store';
import { useSessionStore } from './session-store';

afterEach(() => {
  useSessionStore.setState({ user: null, ended: false });
  vi.unstubAllGlobals();
});

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

  it('shows one failed list load at a time, none after the session ended, and drops it when it ends', () => {
    const store = useFeedbackStore.getState();
    store.showListError({ title: 'Advertencia', message: 'Sin datos' });
    store.showListError({ title: 'Error', message: 'Algo salió mal en el servidor.' });
    expect(useFeedbackStore.getState().listError).toEqual({ title: 'Advertencia', message: 'Sin datos' });
    vi.stubGlobal('localStorage', { getItem: () => null, removeItem: () => undefined });
    endSession('deleted', null);
    expect(useFeedbackStore.getState().listError).toBeNull();
    store.showListError({ title: 'Error', message: 'Algo salió mal en el servidor.' });
    expect(useFeedbackStore.getState().listError).toBeNull();
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

  it('drops its question and message when the session ends, and shows none until the next sign-in', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null, removeItem: () => undefined });
    const question = useFeedbackStore.getState().ask({ title: '¿Eliminar?', confirmLabel: 'Sí, eliminar' });
    useFeedbackStore.getState().showMessage({ title: 'Info', message: 'Antes' });

    endSession('logout', null);
    await expect(question).resolves.toBe(false);
    expect(useFeedbackStore.getState()).toMatchObject({ questionOpen: false, messageOpen: false });

    // The flow whose call ended the session fails afterwards: its error is not kept for later.
    useFeedbackStore.getState().showMessage({ title: 'Error', message: 'Ocurrió un problema' });
    expect(useFeedbackStore.getState().messageOpen).toBe(false);

    useSessionStore
      .getState()
      .setUser({ id: 1, name: 'Ana', username: 'ana', types_users_id: 1, bool: true });
    useFeedbackStore.getState().showMessage({ title: 'Info', message: 'Después' });
    expect(useFeedbackStore.getState().messageOpen).toBe(true);
  });
});
