import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  IMPORT_EXAMPLE_TEAM,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  LEVELS,
  MESSAGES,
  canUndoImport,
} from '@concurso/shared';
import {
  blockProcesses,
  collect,
  collectRows,
  connectSocket,
  eventually,
  generateAgentKey,
  injectAttempts,
  signInStaff,
  startTestServer,
  windows1252,
  type TestServer,
} from '@concurso/testkit';

const HEADER = ['Equipo', 'Nivel', 'Coach', 'Código', 'Nombre', 'Semestre', 'Carrera'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DEPARTAMENT = 'Ciencias Computacionales';
/** A career as the preview names it, with its departament. */
const inDepartament = (career: string) => `${career} (${DEPARTAMENT})`;

/** A CSV of `rows` as Spanish Excel writes it: `;`, CRLF, a UTF-8 BOM. */
function csv(rows: ReadonlyArray<ReadonlyArray<string | number>>, separator = ';'): Buffer {
  const text = rows.map((row) => row.join(separator)).join('\r\n');
  return Buffer.from(`\uFEFF${text}\r\n`, 'utf8');
}

/** An XLSX with one sheet of `rows`, written by exceljs (numbers stay number cells). */
async function xlsx(rows: ReadonlyArray<ReadonlyArray<string | number>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Registro');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Bulk import of teams and members: preview, errors by line, all or nothing, push, access. */
describe('team import', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contest: number;

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    server.app.inject({
      method,
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${admin}` },
    });
  const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await server.orm.em.fork().execute<Array<{ n: number }>>(sql, params))[0]!.n);
  const counts = async () => ({
    teams: await count('select count(*) n from teams where contests_id = ?', [contest]),
    members: await count('select count(*) n from members where contests_id = ?', [contest]),
  });

  /** Sends `data` as the multipart `file` named `name`, with `contests_id` unless `fields` says otherwise. */
  const send = (
    path: '/api/previewTeamImport' | '/api/importTeams',
    file: { name: string; data: Buffer; type?: string },
    fields: Record<string, string> = { contests_id: String(contest) },
    token = admin,
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'text/csv' }), file.name);
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ admin, judge } = await signInStaff(server, 'import'));
    contest = (await ok('POST', '/api/createContest', { date: '2026-11-21' })).id;
    const school = (await ok('POST', '/api/createSchool', { name: 'CUCEI' })).id;
    const dep = (
      await ok('POST', '/api/createDepartament', {
        name: DEPARTAMENT,
        type: 0,
        schools_id: school,
      })
    ).id;
    await ok('POST', '/api/createCareer', { name: 'Ingeniería en Computación', departaments_id: dep });
    await ok('POST', '/api/createCareer', { name: 'Licenciatura en Informática', departaments_id: dep });
    const coach = (
      await ok('POST', '/api/createCoach', { name: 'Dra. María Núñez', educationalLevel: 'Doctorado' })
    ).id;
    await ok('POST', '/api/createCoach', { name: 'Mtro. Óscar Ruiz', educationalLevel: 'Maestría' });
    // A team already in the contest, with one member: its name and code are taken.
    const team = await ok('POST', '/api/createTeam', {
      name: 'Los Existentes',
      levels_id: LEVELS.basico,
      coaches_id: coach,
      contests_id: contest,
    });
    const careers = await ok('GET', '/api/getCareers');
    await ok('POST', '/api/createMember', [
      { code: 'E-001', name: 'Ana Previa', semester: 3, teams_id: team.id, careers_id: careers[0].id },
    ]);
  });
  afterAll(async () => server?.close());

  it('previews a good semicolon CSV, names matched ignoring accents and case, and writes nothing', async () => {
    const before = await counts();
    const res = await send('/api/previewTeamImport', {
      name: 'registro.csv',
      data: csv([
        [' código ', 'EQUIPO', 'nivel', 'Coach', 'Nombre', 'SEMESTRE', 'carrera', 'Notas'],
        [
          'A-1',
          'Bits Veloces',
          'BASICO',
          'dra. maria nunez',
          'Luis Gómez',
          '3',
          'ingenieria en computacion',
          'x',
        ],
        [
          'A-2',
          'Bits Veloces',
          'Básico',
          'Dra. María Núñez',
          'Marta Díaz',
          '5',
          'Ingeniería en Computación',
          '',
        ],
        ['', '', '', '', '', '', '', ''],
        [
          'B-1',
          'Los Ñandúes',
          'intermedio',
          'MTRO. OSCAR RUIZ',
          'Pedro Páez',
          '10',
          'licenciatura en informatica',
          '',
        ],
      ]),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      message: '',
      data: {
        members: 3,
        errors: [],
        encoding: 'utf-8',
        teams: [
          {
            name: 'Bits Veloces',
            level: 'Básico',
            coach: 'Dra. María Núñez',
            members: [
              {
                code: 'A-1',
                name: 'Luis Gómez',
                semester: 3,
                career: inDepartament('Ingeniería en Computación'),
              },
              {
                code: 'A-2',
                name: 'Marta Díaz',
                semester: 5,
                career: inDepartament('Ingeniería en Computación'),
              },
            ],
          },
          {
            name: 'Los Ñandúes',
            level: 'Intermedio',
            coach: 'Mtro. Óscar Ruiz',
            members: [
              {
                code: 'B-1',
                name: 'Pedro Páez',
                semester: 10,
                career: inDepartament('Licenciatura en Informática'),
              },
            ],
          },
        ],
      },
    });
    expect(await counts()).toEqual(before);
  });

  it('previews a good XLSX with number cells', async () => {
    const data = await xlsx([
      HEADER,
      ['Compiladores', 'Avanzado', 'Mtro. Óscar Ruiz', 219_001, 'Eva Luna', 7, 'Licenciatura en Informática'],
      ['Compiladores', 'avanzado', 'mtro. oscar ruiz', 219_002, 'Iván Mora', 8, 'Ingeniería en Computación'],
    ]);
    const res = await send('/api/previewTeamImport', { name: 'Registro.XLSX', data, type: XLSX_TYPE });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.errors).toEqual([]);
    expect(body.data.members).toBe(2);
    expect(body.data.encoding).toBeNull();
    expect(body.data.teams).toEqual([
      {
        name: 'Compiladores',
        level: 'Avanzado',
        coach: 'Mtro. Óscar Ruiz',
        members: [
          {
            code: '219001',
            name: 'Eva Luna',
            semester: 7,
            career: inDepartament('Licenciatura en Informática'),
          },
          {
            code: '219002',
            name: 'Iván Mora',
            semester: 8,
            career: inDepartament('Ingeniería en Computación'),
          },
        ],
      },
    ]);
  });

  it('reports each bad row by its line with a Spanish reason', async () => {
    const coach = 'Dra. María Núñez';
    const career = 'Ingeniería en Computación';
    const big = Array.from({ length: 21 }, (_, i) => [
      'Multitud',
      'Básico',
      coach,
      `M-${i}`,
      `Persona ${i}`,
      '2',
      career,
    ]);
    const res = await send('/api/previewTeamImport', {
      name: 'errores.csv',
      data: csv([
        HEADER, // line 1
        ['Uno', 'Experto', coach, 'C-1', 'Ana', '2', career], // 2: unknown level
        ['Dos', 'Básico', 'Profe Desconocido', 'C-2', 'Beto', '2', career], // 3: unknown coach
        ['Dos', 'Básico', coach, 'C-3', 'Carla', '2', 'Medicina'], // 4: unknown career, other coach
        ['Tres', 'Básico', coach, 'C-1', 'Dora', '2', career], // 5: code repeated in the file
        ['Tres', 'Básico', coach, 'e-001', 'Eli', '2', career], // 6: code taken in the contest
        ['Tres', 'Intermedio', coach, 'C-4', 'Fer', '11', career], // 7: semester 11, other level
        ['Cuatro', 'Básico', coach, '', 'Gabo', '2', career], // 8: missing code
        ['los existentes', 'Básico', coach, 'C-5', 'Hugo', '2', career], // 9: team in the contest
        ...big, // 10..30: 21 members
      ]),
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.members).toBe(29);
    expect(data.errors).toEqual([
      { line: 2, message: 'Nivel desconocido «Experto»' },
      { line: 3, message: 'Coach desconocido «Profe Desconocido»' },
      // Line 4 names a known coach: the team's, with no follow-on error about line 3's.
      { line: 4, message: 'Carrera desconocida «Medicina»' },
      { line: 5, message: 'El código C-1 se repite (ya está en la línea 2)' },
      {
        line: 6,
        message: 'El código e-001 ya está registrado en el equipo «Los Existentes» de este concurso',
      },
      { line: 7, message: 'semestre: El semestre debe ser un número entero de 1 a 10' },
      {
        line: 7,
        message: 'El nivel «Intermedio» no coincide con el del equipo «Tres» en la línea 5 («Básico»)',
      },
      { line: 8, message: 'Falta el campo código' },
      {
        line: 9,
        message:
          'El equipo «los existentes» ya existe en este concurso (la importación solo crea equipos nuevos)',
      },
      { line: 10, message: 'El equipo «Multitud» tiene 21 integrantes; el máximo es 20' },
    ]);
  });

  it('reports a missing column on the header line and an empty file', async () => {
    const noCareer = await send('/api/previewTeamImport', {
      name: 'sin-carrera.csv',
      data: csv([HEADER.slice(0, 6), ['Uno', 'Básico', 'X', 'C-1', 'Ana', '2']], ','),
    });
    expect((await noCareer.json()).data).toEqual({
      teams: [],
      members: 0,
      encoding: 'utf-8',
      errors: [{ line: 1, message: 'Falta la columna «Carrera» en el encabezado' }],
    });
    const empty = await send('/api/previewTeamImport', { name: 'vacio.csv', data: csv([HEADER]) });
    expect((await empty.json()).data.errors).toEqual([{ line: 1, message: IMPORT_MESSAGES.empty }]);
  });

  it('imports nothing when only the last row is bad', async () => {
    const before = await counts();
    const coach = 'Dra. María Núñez';
    const career = 'Ingeniería en Computación';
    const res = await send('/api/importTeams', {
      name: 'casi.csv',
      data: csv([
        HEADER,
        ['Alfa', 'Básico', coach, 'T-1', 'Ana', '1', career],
        ['Beta', 'Básico', coach, 'T-2', 'Beto', '2', career],
        ['Gama', 'Básico', coach, 'T-3', 'Carla', '3', career],
        ['Gama', 'Básico', coach, 'T-4', 'Dora', '0', career],
      ]),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      success: false,
      message: IMPORT_MESSAGES.rejected,
      errors: [{ line: 5, message: 'semestre: El semestre debe ser un número entero de 1 a 10' }],
    });
    expect(await counts()).toEqual(before);
  });

  it('imports every team and member in one go and pushes the new teams to the boards', async () => {
    const before = await counts();
    const screen = await connectSocket(server.url, judge);
    const seen = collectRows(screen);
    try {
      const data = await xlsx([
        HEADER,
        ['Nuevos Uno', 'Básico', 'Dra. María Núñez', 'N-1', 'Ana Uno', 1, 'Ingeniería en Computación'],
        ['Nuevos Uno', 'Básico', 'Dra. María Núñez', 'N-2', 'Beto Uno', 2, 'Ingeniería en Computación'],
        ['Nuevos Dos', 'Avanzado', 'Mtro. Óscar Ruiz', 'N-3', 'Carla Dos', 9, 'Licenciatura en Informática'],
      ]);
      const res = await send('/api/importTeams', { name: 'nuevos.xlsx', data, type: XLSX_TYPE });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        success: true,
        data: { teams: 2, members: 3 },
        message: 'Se importaron 2 equipos.',
      });
      expect(await counts()).toEqual({ teams: before.teams + 2, members: before.members + 3 });

      const teams = await ok('GET', '/api/getTeams');
      const one = teams.find((t: { name: string }) => t.name === 'Nuevos Uno');
      const two = teams.find((t: { name: string }) => t.name === 'Nuevos Dos');
      expect(one).toMatchObject({
        contests_id: contest,
        levels_id: LEVELS.basico,
        coach: { name: 'Dra. María Núñez' },
      });
      expect(two).toMatchObject({ levels_id: LEVELS.avanzado, status_team: { status: 'Activo' } });
      const members = await ok('GET', `/api/getParticipantTeam/${one.id}`);
      expect(members.map((m: { code: string; semester: number }) => [m.code, m.semester])).toEqual([
        ['N-1', 1],
        ['N-2', 2],
      ]);

      // The active contest's new teams reach a connected board.
      expect(
        await eventually(() => [one.id, two.id].every((id) => seen.some((row) => row.id === id)), 5_000),
      ).toBe(true);
      expect(seen.find((row) => row.id === two.id)).toMatchObject({
        name: 'Nuevos Dos',
        levels_id: LEVELS.avanzado,
        number_attempts: 0,
      });
    } finally {
      screen.close();
    }

    // The same file again: its teams and codes are now taken, and nothing more is written.
    const again = await send('/api/importTeams', {
      name: 'otra-vez.csv',
      data: csv([
        HEADER,
        ['nuevos uno', 'Básico', 'Dra. María Núñez', 'n-1', 'Ana Uno', '1', 'Ingeniería en Computación'],
      ]),
    });
    expect(again.status).toBe(422);
    expect((await again.json()).errors).toEqual([
      { line: 2, message: 'El código n-1 ya está registrado en el equipo «Nuevos Uno» de este concurso' },
      {
        line: 2,
        message:
          'El equipo «nuevos uno» ya existe en este concurso (la importación solo crea equipos nuevos)',
      },
    ]);
    expect(await counts()).toEqual({ teams: before.teams + 2, members: before.members + 3 });
  });

  it('is for admins only', async () => {
    const file = { name: 'registro.csv', data: csv([HEADER]) };
    for (const path of ['/api/previewTeamImport', '/api/importTeams'] as const) {
      const res = await send(path, file, undefined, judge);
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe(MESSAGES.forbidden);
      const anonymous = await fetch(`${server.url}${path}`, { method: 'POST' });
      expect(anonymous.status).toBe(401);
    }
  });

  it('refuses files that are not a CSV or XLSX by content, name or size', async () => {
    const before = await counts();
    const status = async (file: { name: string; data: Buffer }) => {
      const res = await send('/api/importTeams', file);
      return [res.status, (await res.json()).message];
    };
    expect(await status({ name: 'registro.pdf', data: Buffer.from('%PDF-1.4') })).toEqual([
      415,
      IMPORT_MESSAGES.notSpreadsheet,
    ]);
    expect(await status({ name: 'registro.xlsx', data: csv([HEADER]) })).toEqual([
      415,
      IMPORT_MESSAGES.badXlsx,
    ]);
    // A zip that is not a workbook.
    expect(
      await status({
        name: 'registro.xlsx',
        data: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 1)]),
      }),
    ).toEqual([415, IMPORT_MESSAGES.badXlsx]);
    // A NUL byte is not text (a binary file, or UTF-16, named .csv).
    expect(await status({ name: 'registro.csv', data: Buffer.from('Equipo\u0000;Nivel\r\n') })).toEqual([
      415,
      IMPORT_MESSAGES.badCsv,
    ]);
    expect(await status({ name: 'grande.csv', data: Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a') })).toEqual([
      413,
      IMPORT_MESSAGES.tooLarge,
    ]);
    const json = await call('POST', '/api/importTeams', { contests_id: contest });
    expect(json.statusCode).toBe(415);
    expect(await counts()).toEqual(before);
  });

  it('needs a contest that exists', async () => {
    const file = { name: 'registro.csv', data: csv([HEADER]) };
    const missing = await send('/api/previewTeamImport', file, {});
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors).toEqual({ contests_id: [MESSAGES.required] });
    const unknown = await send('/api/previewTeamImport', file, { contests_id: '999999' });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors).toEqual({ contests_id: ['No se encontró el concurso.'] });
  });

  it("reads Spanish Excel's Windows-1252 CSV with ';', previews its accents right and imports it", async () => {
    const before = await counts();
    const file = {
      name: 'excel-es.csv',
      data: windows1252(
        [
          'Equipo;Nivel;Coach;Código;Nombre;Semestre;Carrera',
          'Los Ñandúes – Vespertino;Básico;Dra. María Núñez;W-1;Bernardo O’Higgins;4;Ingeniería en Computación',
          'Los Ñandúes – Vespertino;Básico;Dra. María Núñez;W-2;Begoña Ibáñez;6;Licenciatura en Informática',
        ].join('\r\n') + '\r\n',
      ),
    };
    const preview = await send('/api/previewTeamImport', file);
    expect(preview.status).toBe(200);
    expect((await preview.json()).data).toEqual({
      members: 2,
      errors: [],
      encoding: 'windows-1252',
      teams: [
        {
          name: 'Los Ñandúes – Vespertino',
          level: 'Básico',
          coach: 'Dra. María Núñez',
          members: [
            {
              code: 'W-1',
              name: 'Bernardo O’Higgins',
              semester: 4,
              career: inDepartament('Ingeniería en Computación'),
            },
            {
              code: 'W-2',
              name: 'Begoña Ibáñez',
              semester: 6,
              career: inDepartament('Licenciatura en Informática'),
            },
          ],
        },
      ],
    });

    const res = await send('/api/importTeams', file);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await counts()).toEqual({ teams: before.teams + 1, members: before.members + 2 });
    const team = (await ok('GET', '/api/getTeams')).find(
      (row: { name: string }) => row.name === 'Los Ñandúes – Vespertino',
    );
    const members = await ok('GET', `/api/getParticipantTeam/${team.id}`);
    expect(members.map((m: { name: string }) => m.name)).toEqual(['Bernardo O’Higgins', 'Begoña Ibáñez']);
  });

  it("refuses the template's example row left in the file, and nothing else about it", async () => {
    const res = await send('/api/previewTeamImport', {
      name: 'plantilla.csv',
      data: csv([
        HEADER,
        [IMPORT_EXAMPLE_TEAM, 'Básico', 'Dra. María Núñez', '219000001', 'Ana López Pérez', '3', 'X'],
        ['Real', 'Básico', 'Dra. María Núñez', 'R-1', 'Rita', '3', 'Ingeniería en Computación'],
      ]),
    });
    const { data } = await res.json();
    expect(data.errors).toEqual([{ line: 2, message: IMPORT_MESSAGES.exampleRow }]);
    expect(data.teams.map((team: { name: string }) => team.name)).toEqual(['Real']);
  });

  it("reports a team's unknown coach once, not again on its later lines", async () => {
    const coach = 'Dra. María Núñez';
    const career = 'Ingeniería en Computación';
    const res = await send('/api/previewTeamImport', {
      name: 'coach-mal.csv',
      data: csv([
        HEADER,
        ['Cinco', 'Básico', 'Dra. Maria Nunes', 'K-1', 'Ana', '2', career], // 2: misspelt coach
        ['Cinco', 'Básico', coach, 'K-2', 'Beto', '2', career], // 3..6: the right one
        ['Cinco', 'Básico', coach, 'K-3', 'Carla', '2', career],
        ['Cinco', 'Básico', coach, 'K-4', 'Dora', '2', career],
        ['Seis', 'Básico', 'Profe Fantasma', 'K-5', 'Eli', '2', career], // 6..7: the same unknown coach
        ['Seis', 'Básico', 'profe fantasma', 'K-6', 'Fer', '2', career],
        ['Seis', 'Básico', coach, 'K-7', 'Gabo', '2', career], // 8: a known one after it
        ['Seis', 'Básico', 'Mtro. Óscar Ruiz', 'K-8', 'Hugo', '2', career], // 9: disagrees with line 8
      ]),
    });
    expect((await res.json()).data.errors).toEqual([
      { line: 2, message: 'Coach desconocido «Dra. Maria Nunes»' },
      { line: 6, message: 'Coach desconocido «Profe Fantasma»' },
      {
        line: 9,
        message: `El coach «Mtro. Óscar Ruiz» no coincide con el del equipo «Seis» en la línea 8 («${coach}»)`,
      },
    ]);
  });

  it("imports a career two departaments share by 'Carrera (Departamento)', as the members form names it", async () => {
    const school = (await ok('POST', '/api/createSchool', { name: 'CUCEA' })).id;
    const other = (
      await ok('POST', '/api/createDepartament', {
        name: 'Sistemas de Información',
        type: 0,
        schools_id: school,
      })
    ).id;
    const twin = await ok('POST', '/api/createCareer', {
      name: 'Ingeniería en Computación',
      departaments_id: other,
    });
    const row = (code: string, career: string) => [
      'Gemelos',
      'Avanzado',
      'Dra. María Núñez',
      code,
      `Persona ${code}`,
      '3',
      career,
    ];

    const bare = await send('/api/previewTeamImport', {
      name: 'ambigua.csv',
      data: csv([HEADER, row('G-1', 'Ingeniería en Computación')]),
    });
    expect((await bare.json()).data.errors).toEqual([
      {
        line: 2,
        message: IMPORT_MESSAGES.ambiguousCareer(
          'Ingeniería en Computación',
          2,
          inDepartament('Ingeniería en Computación'),
        ),
      },
    ]);

    const res = await send('/api/importTeams', {
      name: 'con-departamento.csv',
      data: csv([
        HEADER,
        row('G-1', 'Ingeniería en Computación (Sistemas de Información)'),
        row('G-2', 'ingenieria en computacion (ciencias computacionales)'),
      ]),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const team = (await ok('GET', '/api/getTeams')).find((t: { name: string }) => t.name === 'Gemelos');
    const members = await ok('GET', `/api/getParticipantTeam/${team.id}`);
    expect(
      members.map((m: { code: string; careers_id: number }) => [m.code, m.careers_id === twin.id]),
    ).toEqual([
      ['G-1', true],
      ['G-2', false],
    ]);
  });

  it('undoes an import in one step while none of its teams has attempts, and lists it', async () => {
    await ok('POST', `/api/activateContest/${contest}`);
    await blockProcesses(server.orm, contest, ['Discord.exe']);
    const before = await counts();
    const file = (teams: string[]) => ({
      name: 'equivocado.csv',
      data: csv([
        HEADER,
        ...teams.map((team, i) => [
          team,
          'Intermedio',
          'Dra. María Núñez',
          `U-${team}-${i}`,
          `Persona ${i}`,
          '2',
          'Licenciatura en Informática',
        ]),
      ]),
    });
    expect((await send('/api/importTeams', file(['Error Uno', 'Error Dos']))).status).toBe(200);
    const [listed] = await ok('GET', '/api/getTeamImports');
    expect(listed).toMatchObject({
      contests_id: contest,
      file_name: 'equivocado.csv',
      teams: 2,
      members: 2,
      remaining: 2,
      attempts: 0,
      user: { name: expect.any(String) },
      undone_at: null,
    });
    expect(canUndoImport(listed)).toBe(true);

    const screen = await connectSocket(server.url, judge, [LEVELS.intermedio]);
    const removed = collect(screen, 'team.removed');
    try {
      const res = await call('POST', `/api/undoTeamImport/${listed.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { teams: 2 }, message: IMPORT_MESSAGES.undone(2) });
      expect(await eventually(() => removed.length === 2, 5_000)).toBe(true);
    } finally {
      screen.close();
    }
    expect(await counts()).toEqual(before);
    const [undone] = await ok('GET', '/api/getTeamImports');
    expect(undone).toMatchObject({ id: listed.id, remaining: 0, undone_at: expect.any(String) });
    expect(canUndoImport(undone)).toBe(false);
    const again = await call('POST', `/api/undoTeamImport/${listed.id}`);
    expect([again.statusCode, again.json().message]).toEqual([409, IMPORT_MESSAGES.alreadyUndone]);
    expect((await call('POST', '/api/undoTeamImport/999999')).statusCode).toBe(404);

    // Once a team of an import has an attempt, the undo is refused and nothing is deleted.
    expect((await send('/api/importTeams', file(['Con Intento', 'Sin Intento']))).status).toBe(200);
    const [second] = await ok('GET', '/api/getTeamImports');
    const team = (await ok('GET', '/api/getTeams')).find((t: { name: string }) => t.name === 'Con Intento');
    const key = await generateAgentKey(server.app, admin, team.id);
    expect((await injectAttempts(server.app, key, ['Discord.exe'])).statusCode).toBe(200);
    const refused = await call('POST', `/api/undoTeamImport/${second.id}`);
    expect([refused.statusCode, refused.json().message]).toEqual([
      409,
      IMPORT_MESSAGES.undoHasAttempts('Con Intento', 1),
    ]);
    expect((await counts()).teams).toBe(before.teams + 2);
    expect((await ok('GET', '/api/getTeamImports'))[0]).toMatchObject({
      id: second.id,
      attempts: 1,
      remaining: 2,
    });

    // A judge may not list or undo imports.
    const judgeList = await server.app.inject({
      method: 'GET',
      url: '/api/getTeamImports',
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(judgeList.statusCode).toBe(403);
  });
});
