import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { LEVELS, MESSAGES } from '@concurso/shared';
import {
  createTeam,
  generateAgentKey,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';
import { PDF_TICKET_TTL_S } from '../src/modules/exercises/pdf-ticket.js';

/** A small valid PDF (one empty page). */
function pdf(text = 'Ejercicio'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

/** Exercise PDFs (docs/spec.md sections 2, 3, 7): upload checks, storage, replacement, access. */
describe('exercises', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contest: number;

  const upload = (
    url: string,
    fields: Record<string, string>,
    file?: { name: string; data: Buffer },
    token = admin,
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file)
      form.append('path', new Blob([new Uint8Array(file.data)], { type: 'application/pdf' }), file.name);
    return fetch(`${server.url}${url}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
  };
  const storedFiles = async () =>
    readdir(path.join(server.config.dataDir, 'exercises')).catch(() => [] as string[]);
  /** `token` null: anonymous. */
  const get = (url: string, token: string | null = admin) =>
    server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    server = await startTestServer({ maxUploadBytes: 64 * 1024 });
    ({ admin, judge } = await signInStaff(server, 'ex'));
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/createContest',
      payload: { date: '2026-11-21' },
      headers: { authorization: `Bearer ${admin}` },
    });
    contest = res.json().data.id;
  });
  afterAll(async () => server?.close());

  let exerciseId: number;

  it('stores a PDF under a generated name in the current contest and lists it', async () => {
    const res = await upload(
      '/api/createExercise',
      { levels_id: String(LEVELS.basico) },
      {
        name: 'Problema A.pdf',
        data: pdf('A'),
      },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      message: MESSAGES.created,
      data: {
        original_name: 'Problema A.pdf',
        levels_id: LEVELS.basico,
        contests_id: contest,
        level: { level: 'Básico' },
        contest: { calendar: '2026B' },
      },
    });
    expect(body.data.path).toMatch(/^[0-9a-f]{32}\.pdf$/);
    exerciseId = body.data.id;
    expect(await storedFiles()).toEqual([body.data.path]);

    const combo = await get(`/api/exercisesCombo/${contest}/${LEVELS.basico}`, judge);
    expect(combo.json().data).toEqual([{ id: exerciseId, name: 'Problema A.pdf' }]);
    expect((await get(`/api/exercisesCombo/${contest}/${LEVELS.avanzado}`)).json().data).toEqual([]);
    const list = await get('/api/getExercises', judge);
    expect(list.json().data).toHaveLength(1);
  });

  it('serves the PDF only to signed-in staff', async () => {
    const res = await get(`/api/exercisePdf/${exerciseId}`, judge);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(pdf('A'))).toBe(true);
    expect((await get(`/api/exercisePdf/${exerciseId}`, null)).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: `/exercises/${exerciseId}` })).body).not.toContain(
      '%PDF',
    );
  });

  it("serves 'Ver PDF' at a URL ending in the file's own name, with a ticket for that PDF only", async () => {
    const link = await get(`/api/exercisePdfLink/${exerciseId}`, judge);
    expect(link.statusCode).toBe(200);
    const url = new URL(link.json().data.url as string, server.url);
    expect(url.pathname).toBe(`/api/exercisePdf/${exerciseId}/Problema%20A.pdf`);
    const ticket = url.searchParams.get('ticket');
    expect(ticket).toBeTruthy();
    // Good for a few minutes only.
    const claims = JSON.parse(Buffer.from(ticket!.split('.')[1]!, 'base64url').toString()) as { exp: number };
    const left = claims.exp - Math.floor(Date.now() / 1000);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(PDF_TICKET_TTL_S);

    // A tab sends no bearer token: the ticket alone opens the PDF, inline under its own name.
    const res = await get(`${url.pathname}${url.search}`, null);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="Problema A.pdf"');
    expect(res.rawPayload.equals(pdf('A'))).toBe(true);
    // The spec's route still answers the same file.
    expect((await get(`/api/exercisePdf/${exerciseId}`, judge)).rawPayload.equals(pdf('A'))).toBe(true);

    // No ticket, a forged one, or another exercise's: 401.
    expect((await get(url.pathname, null)).statusCode).toBe(401);
    expect((await get(`${url.pathname}?ticket=${ticket!.slice(0, -4)}abcd`, null)).statusCode).toBe(401);
    const other = await upload(
      '/api/createExercise',
      { levels_id: '1' },
      { name: 'Otro.pdf', data: pdf('O') },
    );
    const otherId = (await other.json()).data.id as number;
    expect((await get(`/api/exercisePdf/${otherId}/Otro.pdf?ticket=${ticket}`, null)).statusCode).toBe(401);
    expect((await get(`/api/deleteExercise/${otherId}`)).statusCode).toBe(200);
    // A session's token is no ticket, and a ticket is no session.
    expect((await get(`${url.pathname}?ticket=${judge}`, null)).statusCode).toBe(401);
    expect((await get('/api/getExercises', ticket)).statusCode).toBe(401);
    expect((await get(`/api/exercisePdfLink/${exerciseId}`, null)).statusCode).toBe(401);
    expect((await get('/api/exercisePdfLink/99999', judge)).statusCode).toBe(404);
  });

  it("closes a 'Ver PDF' ticket with its session", async () => {
    const { judge: other } = await signInStaff(server, 'ex_ticket');
    const url = new URL(
      (await get(`/api/exercisePdfLink/${exerciseId}`, other)).json().data.url as string,
      server.url,
    );
    expect((await get(`${url.pathname}${url.search}`, null)).statusCode).toBe(200);
    const logout = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${other}` },
    });
    expect(logout.statusCode).toBe(200);
    expect((await get(`${url.pathname}${url.search}`, null)).statusCode).toBe(401);
  });

  it('encodes a name with quotes and parentheses as one RFC 8187 filename', async () => {
    const name = "Problema (1) l'Ñandú*.pdf";
    const res = await upload('/api/createExercise', { levels_id: '1' }, { name, data: pdf('P') });
    const id = (await res.json()).data.id as number;
    const served = await get(`/api/exercisePdf/${id}`, judge);
    const match = /^inline; filename\*=UTF-8''([A-Za-z0-9%._~!-]+)$/.exec(
      String(served.headers['content-disposition']),
    );
    expect(match, String(served.headers['content-disposition'])).not.toBeNull();
    expect(decodeURIComponent(match![1]!)).toBe(name);
    const url = new URL(
      (await get(`/api/exercisePdfLink/${id}`, judge)).json().data.url as string,
      server.url,
    );
    expect(decodeURIComponent(url.pathname.split('/').at(-1)!)).toBe(name);
    expect((await get(`${url.pathname}${url.search}`, null)).statusCode).toBe(200);
    expect((await get(`/api/deleteExercise/${id}`)).statusCode).toBe(200);
  });

  it('refuses a renamed text file with 415 and leaves no file', async () => {
    const before = await storedFiles();
    const res = await upload(
      '/api/createExercise',
      { levels_id: '1' },
      { name: 'trampa.pdf', data: Buffer.from('hola, no soy un PDF') },
    );
    expect(res.status).toBe(415);
    expect((await res.json()).message).toBe('El archivo no es un PDF válido.');
    const notPdfName = await upload(
      '/api/createExercise',
      { levels_id: '1' },
      { name: 'problema.txt', data: pdf() },
    );
    expect(notPdfName.status).toBe(415);
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses an oversize upload with 413 and leaves no file', async () => {
    const before = await storedFiles();
    const big = Buffer.concat([pdf(), Buffer.alloc(100 * 1024, 0x20)]);
    const res = await upload('/api/createExercise', { levels_id: '1' }, { name: 'grande.pdf', data: big });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/límite/);
    expect(await storedFiles()).toEqual(before);
  });

  it('answers 422 for a missing file or level and writes nothing', async () => {
    const noFile = await upload('/api/createExercise', { levels_id: '1' });
    expect(noFile.status).toBe(422);
    expect((await noFile.json()).errors).toEqual({ path: [MESSAGES.required] });
    const before = await storedFiles();
    const noLevel = await upload('/api/createExercise', {}, { name: 'b.pdf', data: pdf('B') });
    expect(noLevel.status).toBe(422);
    expect((await noLevel.json()).errors.levels_id).toEqual([MESSAGES.required]);
    expect(await storedFiles()).toEqual(before);
    expect((await get('/api/getExercises')).json().data).toHaveLength(1);
  });

  it('refuses a level that is not a canonical integer in the multipart fields', async () => {
    const before = await storedFiles();
    for (const levels_id of ['0x1', '1e0', '1.0', ' 1', 'true']) {
      const res = await upload('/api/createExercise', { levels_id }, { name: 'h.pdf', data: pdf('H') });
      expect([levels_id, res.status]).toEqual([levels_id, 422]);
      expect(Object.keys((await res.json()).errors)).toEqual(['levels_id']);
    }
    const badId = await upload('/api/updateExercise', { id: '0x1', levels_id: '1' });
    expect(badId.status).toBe(422);
    expect(await storedFiles()).toEqual(before);
    expect((await get('/api/getExercises')).json().data).toHaveLength(1);
  });

  it('answers 401 anonymous and 403 to judges on writes', async () => {
    const res = await upload(
      '/api/createExercise',
      { levels_id: '1' },
      { name: 'c.pdf', data: pdf() },
      judge,
    );
    expect(res.status).toBe(403);
    expect((await get(`/api/deleteExercise/${exerciseId}`, judge)).statusCode).toBe(403);
    expect((await get('/api/getExercises', null)).statusCode).toBe(401);
  });

  it('replaces the file on update and deletes the old one after the commit', async () => {
    const before = await storedFiles();
    const res = await upload(
      '/api/updateExercise',
      { id: String(exerciseId), levels_id: String(LEVELS.intermedio) },
      {
        name: 'Problema A v2.pdf',
        data: pdf('A2'),
      },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      message: MESSAGES.saved,
      data: { original_name: 'Problema A v2.pdf', levels_id: 2 },
    });
    const after = await storedFiles();
    expect(after).toEqual([body.data.path]);
    expect(after).not.toEqual(before);
    // Without a file only the level changes.
    const levelOnly = await upload('/api/updateExercise', { id: String(exerciseId), levels_id: '3' });
    expect((await levelOnly.json()).data).toMatchObject({ levels_id: 3, path: body.data.path });
    const missing = await upload(
      '/api/updateExercise',
      { id: '99999', levels_id: '1' },
      { name: 'z.pdf', data: pdf() },
    );
    expect(missing.status).toBe(404);
    expect(await storedFiles()).toEqual(after);
  });

  it("lets an agent read only its own contest and level's PDFs", async () => {
    const team = await createTeam(server.orm, contest, LEVELS.avanzado);
    const other = await createTeam(server.orm, contest, LEVELS.basico);
    const key = await generateAgentKey(server.app, admin, team.id);
    const otherKey = await generateAgentKey(server.app, admin, other.id);
    const own = await server.app.inject({
      method: 'GET',
      url: '/api/agent/exercises',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(own.json().data).toEqual([{ id: exerciseId, name: 'Problema A v2.pdf' }]);
    const pdfRes = await get(`/api/agent/exercises/${exerciseId}/pdf`, key);
    expect(pdfRes.statusCode).toBe(200);
    expect((await get(`/api/agent/exercises/${exerciseId}/pdf`, otherKey)).statusCode).toBe(404);
    expect((await get(`/api/exercisePdf/${exerciseId}`, key)).statusCode).toBe(401);

    // While another contest is the active one, the same key sees no exercise and no PDF
    // (next term's statements stay unseen until their contest starts); activated again, it does.
    const next = await server.app.inject({
      method: 'POST',
      url: '/api/createContest',
      payload: { date: '2027-02-10' },
      headers: { authorization: `Bearer ${admin}` },
    });
    const activate = (id: number) =>
      server.app.inject({
        method: 'POST',
        url: `/api/activateContest/${id}`,
        payload: {},
        headers: { authorization: `Bearer ${admin}` },
      });
    expect((await activate(next.json().data.id)).statusCode).toBe(200);
    try {
      expect((await get('/api/agent/exercises', key)).json()).toMatchObject({ success: true, data: [] });
      expect((await get(`/api/agent/exercises/${exerciseId}/pdf`, key)).statusCode).toBe(404);
    } finally {
      expect((await activate(contest)).statusCode).toBe(200);
    }
    expect((await get(`/api/agent/exercises/${exerciseId}/pdf`, key)).statusCode).toBe(200);
  });

  it('deletes the exercise and its file', async () => {
    expect((await get(`/api/deleteExercise/${exerciseId}`)).json()).toEqual({
      success: true,
      message: MESSAGES.deleted,
    });
    expect(await storedFiles()).toEqual([]);
    expect((await get(`/api/deleteExercise/${exerciseId}`)).statusCode).toBe(404);
    expect((await get(`/api/exercisePdf/${exerciseId}`)).statusCode).toBe(404);
  });
});
