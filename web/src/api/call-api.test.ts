import { afterEach, describe, expect, it, vi } from 'vitest';
import { boardRoutes, contestsRoutes, defineRoute, exercisesRoutes, processesRoutes } from '@concurso/shared';
import { callApi } from './call-api';

/** Stubs fetch with one JSON answer and records what was asked. */
function stubFetch(body: unknown) {
  const fetchMock = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', { getItem: () => null });
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('callApi', () => {
  it("fills the route's path parameters and uses its method", async () => {
    const fetchMock = stubFetch({ success: true, data: [], message: '' });
    await callApi(exercisesRoutes.combo, { params: { contestId: 4, levelId: 2 } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/exercisesCombo/4/2');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
  });

  it('sends the declared body as JSON, and no body when the route declares none', async () => {
    const fetchMock = stubFetch({ success: true, data: [], message: 'Registrado' });
    await callApi(contestsRoutes.replaceBlockedProcesses, { body: { contests_id: 1, processes_id: [3] } });
    await callApi(processesRoutes.addCommon);
    const [[, save], [, common]] = fetchMock.mock.calls as unknown as [
      [string, RequestInit],
      [string, RequestInit],
    ];
    expect(save.method).toBe('POST');
    expect(save.body).toBe('{"contests_id":1,"processes_id":[3]}');
    expect(common.method).toBe('POST');
    expect(common.body).toBeUndefined();
  });

  it('adds a declared query string', async () => {
    const fetchMock = stubFetch({});
    const { z } = await import('zod');
    const search = defineRoute({
      method: 'GET',
      path: '/api/search/:id',
      access: 'public',
      tag: 'prueba',
      summary: 'Prueba',
      params: z.object({ id: z.number() }),
      querystring: z.object({ text: z.string(), page: z.number().optional() }),
      reply: z.object({}),
    });
    await callApi(search, { params: { id: 1 }, query: { text: 'año 2' } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/search/1?text=a%C3%B1o+2');
  });

  it('is typed by the route: its arguments and its answer', async () => {
    stubFetch({ success: true, data: { id: 1 }, message: '' });
    // Type-level: `npm run typecheck` fails if the map and these uses stop agreeing.
    // @ts-expect-error -- the route declares `params: { id }`
    expect(() => callApi(boardRoutes.toggleTeamStatus, {})).toThrow('Falta el parámetro id');
    // @ts-expect-error -- `teamId` is not a parameter of this route
    expect(() => callApi(boardRoutes.toggleTeamStatus, { params: { teamId: 1 } })).toThrow();
    const answer = await callApi(boardRoutes.toggleTeamStatus, { params: { id: 1 } });
    const id: number = answer.data.id;
    // @ts-expect-error -- a board row has no `nombre`
    expect(answer.data.nombre).toBeUndefined();
    expect(id).toBe(1);
  });
});
