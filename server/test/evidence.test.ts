import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  agentTeam,
  callAs,
  createContest,
  injectAttempts,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

const run = promisify(execFile);

/** Attempts and captures (one «antes» and one «despues» each) of the exported team. */
const ATTEMPTS = 20;

/** A real JPEG, a different colour for each `n` (so every capture is its own file). */
const screenJpeg = (n: number): Promise<Buffer> =>
  sharp({
    create: {
      width: 1280,
      height: 720,
      channels: 3,
      background: { r: (n * 37) % 256, g: (n * 91) % 256, b: 160 },
    },
  })
    .jpeg({ quality: 70 })
    .toBuffer();

/** `cmd` run in `cwd`: its exit code and what it wrote (a failing command does not throw). */
async function shell(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd, env: { ...process.env, LC_ALL: 'C' } });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: Number(failed.code ?? 1), out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/**
 * «Exportar evidencia» (server/src/modules/evidence/README.md) on a real MariaDB: attempts made through
 * the agent's route, captures through `POST /api/agent/capture`; the ZIP checked with the real
 * `unzip` and `sha256sum -c`, the PDF's text read from the raw file (jsPDF writes it uncompressed).
 */
describe('evidence export', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let team: { id: number; key: string };
  let folder: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'evidencia'));
    const contestId = (await createContest(server.orm)).id;
    team = await agentTeam(server, admin, { contestId, name: 'Los Ñandúes 7' });
    folder = await mkdtemp(path.join(tmpdir(), 'evidencia-'));
  });

  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('answers a ZIP with the PDF, every capture and a manifest that sha256sum -c checks, and fails on one altered byte', async () => {
    const attempts = Array.from({ length: ATTEMPTS }, (_, i) => ({
      event_id: `evidencia-${String(i).padStart(3, '0')}-${Date.now()}`,
      process: `juego-prohibido-${i}.exe`,
      executable: `C:\\Juegos\\juego-prohibido-${i}.exe`,
      occurred_at: new Date(Date.now() - (ATTEMPTS - i) * 1000).toISOString(),
    }));
    expect((await injectAttempts(server.app, team.key, attempts)).statusCode).toBe(200);
    const beat = await server.app.inject({
      method: 'POST',
      url: '/api/agent/heartbeat',
      headers: { authorization: `Bearer ${team.key}` },
      payload: { hostname: 'lab-07', version: '1.0.0', os: 'linux' },
    });
    expect(beat.statusCode, beat.body).toBeLessThan(300);
    let n = 0;
    for (const attempt of attempts) {
      for (const moment of ['antes', 'despues'] as const) {
        const res = await server.app.inject({
          method: 'POST',
          url: '/api/agent/capture',
          headers: { authorization: `Bearer ${team.key}` },
          payload: {
            event_id: attempt.event_id,
            moment,
            hostname: 'lab-07',
            taken_at: new Date().toISOString(),
            mime: 'image/jpeg',
            image: (await screenJpeg(n++)).toString('base64'),
          },
        });
        expect(res.statusCode, res.body).toBe(204);
      }
    }
    expect((await callAs(server.app, judge, `/api/descalificarTeam/${team.id}`)).status).toBe(200);
    const sent = await callAs(server.app, judge, '/api/sendMessage', {
      target: 'equipo',
      id: team.id,
      text: 'Cierre el juego, por favor',
    });
    expect(sent.status).toBe(200);

    const started = performance.now();
    const res = await server.app.inject({
      url: `/api/teamEvidence/${team.id}`,
      headers: { authorization: `Bearer ${judge}` },
    });
    const elapsedMs = performance.now() - started;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const today = new Date().toISOString().slice(0, 10);
    expect(String(res.headers['content-disposition'])).toBe(
      `attachment; filename=evidencia-Los-Nandues-7-${today}.zip`,
    );
    // The figure the module's README reports (a measurement, not an assertion).
    console.info(
      `evidencia: ${ATTEMPTS} intentos, ${n} capturas: ZIP de ${res.rawPayload.length} bytes en ${Math.round(elapsedMs)} ms`,
    );

    const zipFile = path.join(folder, 'evidencia.zip');
    await writeFile(zipFile, res.rawPayload);
    const out = path.join(folder, 'x');
    expect((await shell('unzip', ['-q', zipFile, '-d', out], folder)).code).toBe(0);
    const captures = await readdir(path.join(out, 'capturas'));
    expect(captures).toHaveLength(2 * ATTEMPTS);
    expect(captures.every((name) => /^intento-\d+-(antes|despues)-[0-9a-f]{12}\.jpg$/.test(name))).toBe(true);
    const manifest = (await readFile(path.join(out, 'manifiesto.sha256'), 'utf8')).trim().split('\n');
    expect(manifest).toHaveLength(2 + 2 * ATTEMPTS);
    expect(manifest.map((line) => line.slice(66)).slice(0, 2)).toEqual(['evidencia.pdf', 'cadena.txt']);

    const good = await shell('sha256sum', ['-c', 'manifiesto.sha256'], out);
    expect(good.code, good.out).toBe(0);
    expect(good.out.match(/: OK$/gm)).toHaveLength(2 + 2 * ATTEMPTS);

    // The chain's head in cadena.txt is the contest's, and it verified at export time.
    const cadena = await readFile(path.join(out, 'cadena.txt'), 'utf8');
    const verdict = (await callAs(server.app, judge, '/api/contestLog/verify')).body.data;
    expect(verdict.ok).toBe(true);
    expect(cadena).toContain(`Cabeza de la cadena: ${verdict.count} eslabones`);
    expect(cadena).toMatch(/Hash de la cabeza: [0-9a-f]{64}\n/);
    expect(cadena).toContain('Verificación al exportar: correcta');

    // The PDF, read raw (latin1: jsPDF writes WinAnsi text uncompressed).
    const pdf = (await readFile(path.join(out, 'evidencia.pdf'))).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    const inPdf = (text: string) => expect(pdf.includes(text), `el PDF dice «${text}»`).toBe(true);
    inPdf('(Equipo: Los Ñandúes 7');
    inPdf('juego-prohibido-3.exe');
    inPdf('Cierre el juego, por favor');
    inPdf('de Activo a Descalificado');
    inPdf('sha256sum -c manifiesto.sha256');
    // A parenthesis inside a PDF string is escaped: «\(».
    inPdf('(lab-07 \\(linux, agente 1.0.0');
    expect(pdf.match(/\/Subtype \/Image/g)).toHaveLength(2 * ATTEMPTS);

    // One byte of one capture changed: sha256sum -c fails and names that file.
    const altered = path.join(out, 'capturas', captures[5]!);
    const bytes = await readFile(altered);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0xff;
    await writeFile(altered, bytes);
    const bad = await shell('sha256sum', ['-c', 'manifiesto.sha256'], out);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain(`capturas/${captures[5]}: FAILED`);
    expect(bad.out.match(/: OK$/gm)).toHaveLength(2 * ATTEMPTS + 1);
  });

  it('lets judges and admins export, never an agent key nor anonymous; 404 for an unknown team', async () => {
    const url = `/api/teamEvidence/${team.id}`;
    const asAdmin = await server.app.inject({ url, headers: { authorization: `Bearer ${admin}` } });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const asAgent = await server.app.inject({ url, headers: { authorization: `Bearer ${team.key}` } });
    expect(asAgent.statusCode).toBe(401);
    expect((await server.app.inject({ url })).statusCode).toBe(401);
    const unknown = await server.app.inject({
      url: '/api/teamEvidence/999999',
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
