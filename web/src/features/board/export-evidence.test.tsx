import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import { appSystem } from '../../ui/theme';
import { ExportEvidenceButton } from './export-evidence-button';
import { dispositionFileName, evidencePath, fetchEvidence } from './export-evidence';

/** What the test's HTTP server answers: a ZIP-like body in three pieces, as the server names it. */
const BODY = [Buffer.from('PK\u0003\u0004'), Buffer.alloc(70_000, 1), Buffer.alloc(70_000, 2)];

describe("«Exportar evidencia» in a team's history", () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method, url: request.url, headers: request.headers });
      if (request.headers.authorization !== 'Bearer ficha-juez') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: false, data: null, message: 'Sesión no válida' }));
        return;
      }
      response.writeHead(200, {
        'content-type': 'application/zip',
        'content-disposition': 'attachment; filename=evidencia-Los-Nandues-7-2026-11-27.zip',
      });
      for (const piece of BODY) response.write(piece);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is a button of the dialog, in Spanish', () => {
    const html = renderToStaticMarkup(
      <ChakraProvider value={appSystem}>
        <ExportEvidenceButton teamId={7} />
      </ChakraProvider>,
    );
    expect(html).toMatch(/data-testid="export-evidence"[^>]*>Exportar evidencia</);
  });

  it("asks GET /api/teamEvidence/{id} with the judge's token and keeps the server's file name", async () => {
    expect(evidencePath(7)).toBe('/api/teamEvidence/7');
    const progress: number[] = [];
    const file = await fetchEvidence(`${base}${evidencePath(7)}`, 'ficha-juez', (bytes) =>
      progress.push(bytes),
    );
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/teamEvidence/7' });
    expect(seen.at(-1)!.headers.accept).toBe('application/zip');
    expect(file.fileName).toBe('evidencia-Los-Nandues-7-2026-11-27.zip');
    const total = BODY.reduce((sum, piece) => sum + piece.length, 0);
    expect(file.blob.size).toBe(total);
    expect(progress.at(-1)).toBe(total);
    expect(Buffer.from(await file.blob.slice(0, 4).arrayBuffer()).toString('latin1')).toBe('PK\u0003\u0004');
  });

  it("rejects with the server's status when it refuses", async () => {
    await expect(fetchEvidence(`${base}${evidencePath(7)}`, 'otra', () => {})).rejects.toMatchObject({
      status: 401,
    });
  });

  it('reads the file name of either form of Content-Disposition', () => {
    expect(dispositionFileName("attachment; filename*=UTF-8''evidencia-%C3%91.zip", 'x.zip')).toBe(
      'evidencia-Ñ.zip',
    );
    expect(dispositionFileName('attachment; filename="a b.zip"', 'x.zip')).toBe('a b.zip');
    expect(dispositionFileName(null, 'x.zip')).toBe('x.zip');
  });
});
