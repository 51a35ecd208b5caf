import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver, onlineManager } from '@tanstack/react-query';
import { membersRoutes } from '@concurso/shared';
import { endSession } from '../session-end';
import { useFeedbackStore } from '../../stores/feedback-store';
import { useSessionStore } from '../../stores/session-store';
import { catalogListQuery } from './catalog-queries';
import { listQuery } from './list-query';
import { createQueryClient, queryClient } from './query-client';
import { okList, settle, stubApi } from './fake-api.test-support';

let api: ReturnType<typeof stubApi>;
let stops: Array<() => void>;

beforeEach(() => {
  api = stubApi();
  stops = [];
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  stops.forEach((stop) => stop());
  queryClient.clear();
  useFeedbackStore.getState().dismissListError();
  useSessionStore.setState({ user: null, ended: false });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const membersOf = (teamId: number) =>
  listQuery('members', membersRoutes.list, { params: { teamId }, failure: 'No se pudieron cargar' });

describe('the query client', () => {
  it('reads a list once however many components show it', async () => {
    const client = createQueryClient();
    for (let i = 0; i < 3; i += 1) {
      stops.push(new QueryObserver(client, catalogListQuery('levels')).subscribe(() => undefined));
    }
    await settle();
    expect(api.paths()).toEqual(['/api/getLevels']);
    api.of('/api/getLevels')?.answer(okList([{ id: 1, level: 'Básico' }]));
    await settle();
    expect(client.getQueryData(catalogListQuery('levels').queryKey)).toEqual([{ id: 1, level: 'Básico' }]);
  });

  it('tells a failed catalogue list once, with the docs/spec.md section 8 texts, and retries nothing', async () => {
    const client = createQueryClient();
    stops.push(new QueryObserver(client, catalogListQuery('contests')).subscribe(() => undefined));
    stops.push(new QueryObserver(client, catalogListQuery('schools')).subscribe(() => undefined));
    await settle();
    api.of('/api/getContests')?.answer({ success: false, data: [], message: 'Sin datos' });
    await settle();
    api.of('/api/getSchools')?.fail();
    await settle();
    // The first dialog is still open: the second failure does not replace it.
    expect(useFeedbackStore.getState().listError).toEqual({ title: 'Advertencia', message: 'Sin datos' });
    expect(api.requests).toHaveLength(2);

    useFeedbackStore.getState().dismissListError();
    void client.refetchQueries({ queryKey: catalogListQuery('schools').queryKey });
    await settle();
    api.of('/api/getSchools')?.fail();
    await settle();
    expect(useFeedbackStore.getState().listError).toEqual({
      title: 'Error de Conexión',
      message: 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.',
    });
  });

  it('sends a load while the browser says it is offline, so its failure is told (no paused spinner)', async () => {
    const client = createQueryClient();
    onlineManager.setOnline(false);
    try {
      stops.push(new QueryObserver(client, catalogListQuery('coaches')).subscribe(() => undefined));
      await settle();
      api.of('/api/getCoaches')?.fail();
      await settle();
      expect(useFeedbackStore.getState().listError?.title).toBe('Error de Conexión');
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('leaves the failure of a dialog’s list to the dialog (no list-failure dialog), and logs it', async () => {
    const client = createQueryClient();
    const failed = client.fetchQuery(membersOf(3));
    await settle();
    api
      .of('/api/getParticipantTeam/3')
      ?.answer({ success: false, message: 'No se encontró el equipo.' }, 404);
    await expect(failed).rejects.toMatchObject({ status: 404 });
    expect(useFeedbackStore.getState().listError).toBeNull();
    expect(console.error).toHaveBeenCalledWith('No se pudieron cargar', expect.anything());
  });

  it('forgets every list when the session ends, cancelling the loads on their way without a dialog', async () => {
    queryClient.setQueryData(catalogListQuery('schools').queryKey, [{ id: 1, name: 'CUCEI' }]);
    stops.push(new QueryObserver(queryClient, catalogListQuery('levels')).subscribe(() => undefined));
    await settle();
    const load = api.of('/api/getLevels');

    endSession('deleted', 'jwt');
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(load?.signal?.aborted).toBe(true);
    await settle();
    expect(useFeedbackStore.getState().listError).toBeNull();
  });
});
