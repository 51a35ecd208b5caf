import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  IMPORT_XLSX_MAX_ENTRIES,
  IMPORT_XLSX_MAX_UNZIPPED_BYTES,
  seededRandom,
} from '@concurso/shared';
import { eventually, signInStaff, startTestServer, type TestServer } from '@concurso/testkit';
import { craftZip, deflatedEntry, repeatedEntry, unzipEntries } from './support/crafted-zip.js';
import { healthPoller } from './support/health-poller.js';

// Figures (answer times, memory growth, health latency) are printed for the record, never compared with
// a benchmark: the assertions are generous bounds that only a server reading a whole upload would miss.

const HEADER = ['Equipo', 'Nivel', 'Coach', 'Código', 'Nombre', 'Semestre', 'Carrera'];
const COACH = 'Dra. María Núñez';
const CAREER = 'Ingeniería en Computación';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

/** An XLSX with one sheet of `rows`, written by exceljs. */
async function xlsx(rows: ReadonlyArray<ReadonlyArray<string | number | Date>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Registro');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A member row of `team` with code `code`. */
const member = (team: string, code: string, name: string) => [team, 'Básico', COACH, code, name, 3, CAREER];

/**
 * Runs `work` while sampling this process's RSS every 10 ms (the test server runs in it): the answer
 * time in ms and the growth of RSS above its value before, at its highest, in MB.
 */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; rssGrowthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      result,
      ms: Math.round(performance.now() - start),
      rssGrowthMb: Math.round((peak - before) / MB),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Uploads bounded before they are parsed (docs/design.md section 6a "Uploads"), read as they stream, one
 * import at a time.
 */
describe('import bounds', () => {
  let server: TestServer;
  let admin: string;
  let contest: number;

  const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await server.app.inject({
      method,
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${admin}` },
    });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const count = async (sql: string) =>
    Number((await server.orm.em.fork().execute<Array<{ n: number }>>(sql, [contest]))[0]!.n);
  const teams = () => count('select count(*) n from teams where contests_id = ?');

  /** Sends `data` as the multipart `file` named `name` with `contests_id`. */
  const send = (
    path: '/api/previewTeamImport' | '/api/importTeams',
    file: { name: string; data: Buffer; type?: string },
  ) => {
    const form = new FormData();
    form.append('contests_id', String(contest));
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'text/csv' }), file.name);
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
  };
  const csv = (rows: ReadonlyArray<ReadonlyArray<string | number>>) =>
    Buffer.from(`${rows.map((row) => row.join(';')).join('\r\n')}\r\n`, 'utf8');

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin } = await signInStaff(server, 'bounds'));
    contest = (await ok('POST', '/api/createContest', { date: '2026-11-21' })).id;
    const school = (await ok('POST', '/api/createSchool', { name: 'CUCEI' })).id;
    const departaments_id = (
      await ok('POST', '/api/createDepartament', { name: 'Computación', type: 0, schools_id: school })
    ).id;
    await ok('POST', '/api/createCareer', { name: CAREER, departaments_id });
    await ok('POST', '/api/createCoach', { name: COACH, educationalLevel: 'Doctorado' });
  });
  afterAll(async () => server?.close());

  it('refuses a zip bomb from its central directory, in a moment and without inflating it', async () => {
    // A valid workbook plus 9 padding entries of 500 MB of zeros each: 4.5 GB that really inflate.
    const workbook = await unzipEntries(await xlsx([HEADER, member('Bomba', 'Z-1', 'Ana')]));
    const zeros = Buffer.alloc(MB);
    const padding = Array.from({ length: 9 }, (_, i) =>
      repeatedEntry(`xl/media/relleno${i + 1}.bin`, { fill: zeros, times: 500 }),
    );
    const bomb = craftZip([...workbook.map((e) => deflatedEntry(e.name, e.content)), ...padding]);
    const declared = padding.reduce((sum, entry) => sum + entry.declaredSize, 0);
    expect(bomb.length).toBeLessThanOrEqual(IMPORT_MAX_BYTES);
    expect(declared).toBeGreaterThan(4.5e9);

    const health = healthPoller(server.url);
    const { result, ms, rssGrowthMb } = await measured(async () => {
      const res = await send('/api/previewTeamImport', { name: 'bomba.xlsx', data: bomb, type: XLSX_TYPE });
      return { status: res.status, body: await res.json() };
    });
    const waits = await health.stop();
    console.log(
      `zip bomb (${(bomb.length / MB).toFixed(1)} MB declaring ${(declared / 1e9).toFixed(1)} GB): ` +
        `${result.status} in ${ms} ms, RSS +${rssGrowthMb} MB; ` +
        `health checks: ${waits.length} answered, worst ${Math.round(Math.max(0, ...waits))} ms`,
    );
    expect(result.status).toBe(413);
    expect(result.body).toEqual({ success: false, message: IMPORT_MESSAGES.xlsxTooLarge });
    expect(ms).toBeLessThan(5_000);
    expect(rssGrowthMb).toBeLessThan(300);

    // The same workbook without its padding is read as usual: the bound, not the workbook, refused it.
    const plain = craftZip(workbook.map((e) => deflatedEntry(e.name, e.content)));
    const res = await send('/api/previewTeamImport', { name: 'plano.xlsx', data: plain, type: XLSX_TYPE });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ members: 1, errors: [] });
  });

  it('refuses a zip of too many entries before reading them', async () => {
    const workbook = await unzipEntries(await xlsx([HEADER, member('Partes', 'P-1', 'Ana')]));
    const many = Array.from({ length: IMPORT_XLSX_MAX_ENTRIES }, (_, i) =>
      deflatedEntry(`xl/media/parte${i}.bin`, Buffer.from('x')),
    );
    const data = craftZip([...workbook.map((e) => deflatedEntry(e.name, e.content)), ...many]);
    const res = await send('/api/importTeams', { name: 'partes.xlsx', data, type: XLSX_TYPE });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe(IMPORT_MESSAGES.xlsxTooManyEntries);
  });

  it('stops inflating a sheet that is larger than its zip entry declares', async () => {
    // The sheet's XML is valid with 200 MB of spaces inside, but its entry declares the XML without them:
    // read to the end it would preview fine; held to its declared size it is refused while inflating.
    const entries = await unzipEntries(await xlsx([HEADER, member('Mentira', 'M-1', 'Ana')]));
    const sheet = entries.find((e) => e.name === 'xl/worksheets/sheet1.xml')!;
    const xml = sheet.content.toString('utf8');
    const cut = xml.indexOf('<sheetData>') + '<sheetData>'.length;
    const lying = repeatedEntry(
      sheet.name,
      {
        head: Buffer.from(xml.slice(0, cut)),
        fill: Buffer.alloc(MB, ' '),
        times: 200,
        tail: Buffer.from(xml.slice(cut)),
      },
      sheet.content.length,
    );
    const data = craftZip(entries.map((e) => (e === sheet ? lying : deflatedEntry(e.name, e.content))));
    expect(IMPORT_XLSX_MAX_UNZIPPED_BYTES).toBeLessThan(200 * MB);
    const { result, ms, rssGrowthMb } = await measured(async () => {
      const res = await send('/api/previewTeamImport', { name: 'mentira.xlsx', data, type: XLSX_TYPE });
      return { status: res.status, body: await res.json() };
    });
    console.log(
      `lying sheet size (200 MB behind a small declared size): ${result.status} in ${ms} ms, RSS +${rssGrowthMb} MB`,
    );
    expect(result.status).toBe(415);
    expect(result.body.message).toBe(IMPORT_MESSAGES.badXlsx);
    // Refused as the excess inflates: checked only at the entry's end, the 200 MB would have gone through.
    expect(rssGrowthMb).toBeLessThan(100);
  });

  it('stops reading an XLSX of 230,000 rows at the row limit', async () => {
    // exceljs's own workbook of the header, its sheet given 230,000 rows of three number cells (about
    // 5 MB zipped, 25 MB of XML: within the zip bounds, so the row limit is what stops it), zipped by yazl
    // in the order exceljs and Excel write (the sheet before the shared strings, the workbook last).
    // Its last row is cut short (XML exceljs cannot read): a reader that went on past the limit would
    // answer 415 instead of the too-many-rows error.
    const total = 230_000;
    const random = seededRandom(21);
    const rows: string[] = [];
    for (let r = 2; r <= total + 1; r++) {
      const values = [Math.floor(random() * 1e9), Math.floor(random() * 1e6), (r % 10) + 1];
      rows.push(
        `<row r="${r}">${values.map((v, i) => `<c r="${'ABC'[i]}${r}"><v>${v}</v></c>`).join('')}</row>`,
      );
    }
    rows.push(`<row r="${total + 2}"><c r="A${total + 2}"><v>1</v>`);
    const zip = new yazl.ZipFile();
    for (const entry of await unzipEntries(await xlsx([HEADER]))) {
      const content =
        entry.name === 'xl/worksheets/sheet1.xml'
          ? Buffer.from(
              entry.content.toString('utf8').replace('</sheetData>', `${rows.join('')}</sheetData>`),
            )
          : entry.content;
      zip.addBuffer(content, entry.name);
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    expect(data.length).toBeLessThanOrEqual(IMPORT_MAX_BYTES);

    const health = healthPoller(server.url);
    const { result, ms, rssGrowthMb } = await measured(async () => {
      const res = await send('/api/previewTeamImport', { name: 'enorme.xlsx', data, type: XLSX_TYPE });
      return { status: res.status, body: await res.json() };
    });
    const waits = await health.stop();
    console.log(
      `XLSX of ${total} rows (${(data.length / MB).toFixed(1)} MB): ${result.status} in ${ms} ms, ` +
        `RSS +${rssGrowthMb} MB; health checks: ${waits.length} answered, worst ${Math.round(Math.max(0, ...waits))} ms`,
    );
    expect(result.status).toBe(200);
    // Line 1 is the header, lines 2..5001 the 5,000 members the limit allows.
    expect(result.body.data).toEqual({
      teams: [],
      members: 0,
      errors: [{ line: IMPORT_MAX_ROWS + 2, message: IMPORT_MESSAGES.tooManyRows }],
      encoding: null,
    });
    expect(ms).toBeLessThan(15_000);
    expect(rssGrowthMb).toBeLessThan(300);
  });

  it('still reads dates, number cells and blank rows of an XLSX as before', async () => {
    const data = await xlsx([
      HEADER,
      [],
      ['Fechas', 'Básico', COACH, new Date(Date.UTC(2026, 10, 21)), 'Ana', 3, CAREER],
      ['Fechas', 'básico', COACH, 219_002, 'Beto', 4, CAREER],
    ]);
    const res = await send('/api/previewTeamImport', { name: 'fechas.xlsx', data, type: XLSX_TYPE });
    const body = await res.json();
    expect(body.data.errors).toEqual([]);
    expect(body.data.teams[0].members.map((m: { code: string }) => m.code)).toEqual(['2026-11-21', '219002']);
  });

  it('reads 5 MB of blank CSV lines without holding the event loop', async () => {
    const data = Buffer.from('\r\n'.repeat(Math.floor(IMPORT_MAX_BYTES / 2) - 1));
    // What a health check waits with nothing else going on, then while the file is read.
    const idle = healthPoller(server.url);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const normal = (await idle.stop()).sort((a, b) => a - b);
    const busy = healthPoller(server.url);
    const { result, ms } = await measured(async () => {
      const res = await send('/api/previewTeamImport', { name: 'vacio.csv', data });
      return { status: res.status, body: await res.json() };
    });
    const waits = await busy.stop();
    const median = normal[Math.floor(normal.length / 2)]!;
    const worst = Math.max(...waits);
    console.log(
      `CSV of ${(data.length / MB).toFixed(1)} MB of blank lines: ${result.status} in ${ms} ms; ` +
        `health checks: ${waits.length} answered, worst ${Math.round(worst)} ms (normal ${Math.round(median)} ms)`,
    );
    expect(result.status).toBe(200);
    expect(result.body.data.errors).toEqual([{ line: 1, message: IMPORT_MESSAGES.empty }]);
    // Polled every 20 ms through the whole read: a read that held the loop 2 s would show here.
    expect(waits.length).toBeGreaterThan(ms / 100);
    // The one-piece read held it 2 s. The bound (half of that) leaves room for a busy 2-core CI machine,
    // where other test files' workers deschedule this one now and then (424 ms once at 400): the figure
    // itself is the log line above.
    expect(worst - median).toBeLessThan(1_000);
  });

  it('takes one import at a time: another gets 429 until the first ends, whatever its end', async () => {
    const boundary = '----limites-de-importacion';
    const file = csv([HEADER, member('Turno Uno', 'T-1', 'Ana')]);
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="contests_id"\r\n\r\n${contest}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="turno.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    );
    const end = Buffer.from(`\r\n--${boundary}--\r\n`);
    /** An import whose upload stops halfway until `finish()` (or `abort()`). */
    const slowImport = () => {
      const request = http.request(`${server.url}/api/importTeams`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + file.length + end.length,
        },
      });
      const answer = new Promise<{ status: number; body: { message: string } }>((resolve, reject) => {
        request.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
        request.on('error', reject);
      });
      request.write(Buffer.concat([head, file.subarray(0, 10)]));
      return {
        answer,
        finish: () => request.end(Buffer.concat([file.subarray(10), end])),
        abort: () => request.destroy(),
      };
    };
    const preview = async () => {
      const res = await send('/api/previewTeamImport', { name: 'registro.csv', data: csv([HEADER]) });
      return { status: res.status, message: (await res.json()).message };
    };
    const before = await teams();
    const started: Array<{ abort(): void }> = [];
    /**
     * A slow import that holds the slot: a preview gets 429 while it waits halfway. One that arrived
     * while a preview held the slot was turned away (answered at once): then another is started.
     */
    const holding = async () => {
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const held = slowImport();
        started.push(held);
        let answered = false;
        held.answer.then(
          () => (answered = true),
          () => (answered = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        while (!answered && Date.now() < deadline) {
          // Only `held` can hold the slot now: a 429 says it does.
          if ((await preview()).status === 429 && !answered) return held;
        }
      }
      throw new Error('Ninguna importación tomó el turno');
    };
    try {
      // While the first import's upload is halfway, another preview or import is turned away at once.
      const first = await holding();
      expect(await preview()).toEqual({ status: 429, message: IMPORT_MESSAGES.busy });
      const second = await send('/api/importTeams', {
        name: 'otro.csv',
        data: csv([HEADER, member('Turno Dos', 'T-2', 'Beto')]),
      });
      expect(second.status).toBe(429);
      expect((await second.json()).message).toBe(IMPORT_MESSAGES.busy);

      // The first ends well, and then a third import goes through.
      first.finish();
      expect(await first.answer).toMatchObject({ status: 200, body: { message: 'Se importaron 1 equipo.' } });
      const third = await send('/api/importTeams', {
        name: 'tercero.csv',
        data: csv([HEADER, member('Turno Tres', 'T-3', 'Eva')]),
      });
      expect(third.status).toBe(200);
      expect(await teams()).toBe(before + 2);

      // An upload whose client goes away, and an import refused for its rows, let the next one in too.
      const gone = await holding();
      gone.abort();
      expect(await eventually(async () => (await preview()).status === 200, 5_000)).toBe(true);
      const refused = await send('/api/importTeams', {
        name: 'malo.csv',
        data: csv([HEADER, ['Sin nivel']]),
      });
      expect(refused.status).toBe(422);
      expect((await preview()).status).toBe(200);
      expect(await teams()).toBe(before + 2);
    } finally {
      for (const request of started) request.abort();
    }
  });

  it('closes an upload that stalls past its deadline, and frees the slot', async () => {
    // A server of its own whose uploads must arrive within 1 s (60 s in production).
    const quick = await startTestServer({ importReceiveTimeoutMs: 1_000 });
    try {
      const { admin: token } = await signInStaff(quick, 'plazo');
      const created = await quick.app.inject({
        method: 'POST',
        url: '/api/createContest',
        payload: { date: '2026-11-21' },
        headers: { authorization: `Bearer ${token}` },
      });
      const contestsId = String(created.json().data.id);
      const preview = () => {
        const form = new FormData();
        form.append('contests_id', contestsId);
        form.append('file', new Blob([new Uint8Array(csv([HEADER]))], { type: 'text/csv' }), 'registro.csv');
        return fetch(`${quick.url}/api/previewTeamImport`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        });
      };
      const boundary = '----plazo-de-subida';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="contests_id"\r\n\r\n${contestsId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lento.csv"\r\n\r\nEquipo`,
      );
      const stalled = http.request(`${quick.url}/api/previewTeamImport`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + 1_000,
        },
      });
      const started = performance.now();
      const outcome = new Promise<string>((resolve) => {
        stalled.on('response', (res) => resolve(`answered ${res.statusCode}`));
        stalled.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
      stalled.write(head);
      // It holds the slot while it waits...
      expect(await eventually(async () => (await preview()).status === 429, 5_000)).toBe(true);
      // ...until the server closes it, and the next preview goes in.
      expect(await outcome).toBe('ECONNRESET');
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(await eventually(async () => (await preview()).status === 200, 5_000)).toBe(true);
    } finally {
      await quick.close();
    }
  });
});
