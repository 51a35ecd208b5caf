import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@concurso/testkit';
import { redactUrl, serverLoggerOptions } from '../src/lib/log-serializers.js';

/**
 * Secrets never reach the server's log (developers' guide, "Security"): the bearer token is redacted
 * from the headers, and the PDF link's `ticket` from the URL a request line logs.
 */
describe("the server's log", () => {
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(
      {},
      { logger: { ...serverLoggerOptions('info'), stream: { write: (line: string) => lines.push(line) } } },
    );
  });
  afterAll(async () => server?.close());

  it("hides a PDF link's ticket in the request line, keeping the rest of the URL", async () => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.secreto-del-ticket.firma';
    await fetch(`${server.url}/api/exercisePdf/1/problema-a.pdf?ticket=${secret}&v=2`);
    await fetch(`${server.url}/api/auth/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    });
    const log = lines.join('');
    expect(log).toContain('/api/exercisePdf/1/problema-a.pdf?ticket=[oculto]&v=2');
    expect(log).not.toContain(secret);
  });

  it('redacts only the secret parameters, however they are spelled', () => {
    expect(redactUrl('/api/exercisePdf/3/a.pdf?ticket=abc')).toBe('/api/exercisePdf/3/a.pdf?ticket=[oculto]');
    expect(redactUrl('/x?a=1&%74icket=abc&b=2')).toBe('/x?a=1&%74icket=[oculto]&b=2');
    expect(redactUrl('/api/contestLog?process=chrome.exe')).toBe('/api/contestLog?process=chrome.exe');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
