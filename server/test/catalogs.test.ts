import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_FORBIDDEN_PROCESSES, INPUT_MESSAGES, LEVELS, MESSAGES } from '@concurso/shared';
import {
  connectSocket,
  createTeam,
  nextEvent,
  signInStaff,
  startTestServer,
  type TestServer,
} from '@concurso/testkit';

/**
 * The first catalogues' calls (docs/spec.md section 7, docs/design.md sections 4 and 5), every one against the
 * real database: happy path, 422 per required field with nothing written, 401, 403 for judges on
 * writes, 404 for unknown ids, 409 for deletes in use with the row kept.
 */
let server: TestServer;
let adminToken: string;
let judgeToken: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin: adminToken, judge: judgeToken } = await signInStaff(server, 'cat'));
});
afterAll(async () => server?.close());

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
  server.app.inject({
    method,
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  call(method, url, adminToken, payload);
const count = async (table: string) =>
  Number(
    (await server.orm.em.fork().execute<Array<{ n: number }>>(`select count(*) as n from ${table}`))[0]!.n,
  );

interface Case {
  table: string;
  list: string;
  create: string;
  update: string;
  remove: string;
  /** A valid body; may create what it references first. */
  body: () => Promise<Record<string, unknown>>;
  required: string[];
  /** Fields of the answer row to compare with the body. */
  expectRow: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Makes something use row `id`; answers the Spanish fragment the 409 must contain. */
  use: (id: number) => Promise<string>;
}

const created = async (path: string, body: object): Promise<number> => {
  const res = await asAdmin('POST', `/api/${path}`, body);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().data.id as number;
};
let seq = 0;
const unique = (base: string) => `${base} ${++seq}`;

const cases: Record<string, Case> = {
  schools: {
    table: 'schools',
    list: 'getSchools',
    create: 'createSchool',
    update: 'updateSchool',
    remove: 'deleteSchool',
    body: async () => ({ name: unique('Facultad de Ingeniería') }),
    required: ['name'],
    expectRow: (b) => ({ name: b.name }),
    use: async (id) => {
      await created('createDepartament', { name: 'Ciencias Computacionales', type: 0, schools_id: id });
      return '1 departamento';
    },
  },
  levels: {
    table: 'levels',
    list: 'getLevels',
    create: 'createLevel',
    update: 'updateLevel',
    remove: 'deleteLevel',
    body: async () => ({ level: unique('Experto') }),
    required: ['level'],
    expectRow: (b) => ({ level: b.level }),
    use: async (id) => {
      const contest = await created('createContest', { date: '2020-01-10' });
      await createTeam(server.orm, contest, id);
      return '1 equipo';
    },
  },
  departaments: {
    table: 'departaments',
    list: 'getDepartaments',
    create: 'createDepartament',
    update: 'updateDepartament',
    remove: 'deleteDepartament',
    body: async () => ({
      name: unique('Departamento de Electrónica'),
      type: 1,
      schools_id: await created('createSchool', { name: unique('CUCEI') }),
    }),
    required: ['name', 'type', 'schools_id'],
    expectRow: (b) => ({
      name: b.name,
      type: b.type,
      schools_id: b.schools_id,
      school: { id: b.schools_id },
    }),
    use: async (id) => {
      await created('createCareer', { name: 'Ingeniería en Computación', departaments_id: id });
      return '1 carrera';
    },
  },
  careers: {
    table: 'careers',
    list: 'getCareers',
    create: 'createCareer',
    update: 'updateCareer',
    remove: 'deleteCareer',
    body: async () => {
      const school = await created('createSchool', { name: unique('ITM') });
      return {
        name: unique('Licenciatura en Informática'),
        departaments_id: await created('createDepartament', {
          name: 'Sistemas',
          type: 0,
          schools_id: school,
        }),
      };
    },
    required: ['name', 'departaments_id'],
    expectRow: (b) => ({
      name: b.name,
      departaments_id: b.departaments_id,
      departament: { id: b.departaments_id },
    }),
    use: async (id) => {
      const contest = await created('createContest', { date: '2020-02-10' });
      const team = await createTeam(server.orm, contest, LEVELS.basico);
      await server.orm.em
        .fork()
        .execute(
          "insert into members (code, name, semester, teams_id, contests_id, careers_id) values ('219000001', 'Ana', 3, ?, ?, ?)",
          [team.id, contest, id],
        );
      return '1 integrante';
    },
  },
  coaches: {
    table: 'coaches',
    list: 'getCoaches',
    create: 'createCoach',
    update: 'updateCoach',
    remove: 'deleteCoach',
    body: async () => ({ name: unique('Dr. Jorge Ramírez'), educationalLevel: 'Doctorado' }),
    required: ['name', 'educationalLevel'],
    expectRow: (b) => ({ name: b.name, educationalLevel: b.educationalLevel }),
    use: async (id) => {
      const contest = await created('createContest', { date: '2020-03-10' });
      await server.orm.em
        .fork()
        .execute(
          "insert into teams (name, levels_id, coaches_id, contests_id) values ('Usa al coach', 1, ?, ?)",
          [id, contest],
        );
      return '1 equipo';
    },
  },
  processes: {
    table: 'processes',
    list: 'getProcesses',
    create: 'createProcess',
    update: 'updateProcess',
    remove: 'deleteProcess',
    body: async () => ({ name: `${unique('app').replace(' ', '-')}.exe` }),
    required: ['name'],
    expectRow: (b) => ({ name: b.name }),
    use: async (id) => {
      const contest = await created('createContest', { date: '2020-04-10' });
      await asAdmin('POST', '/api/createBlockedProcessForContest', {
        contests_id: contest,
        processes_id: [id],
      });
      return '1 concurso';
    },
  },
  contests: {
    table: 'contests',
    list: 'getContests',
    create: 'createContest',
    update: 'updateContest',
    remove: 'deleteContest',
    body: async () => ({ date: '2019-08-15' }),
    required: ['date'],
    expectRow: (b) => ({ date: b.date, calendar: '2019B' }),
    use: async (id) => {
      await createTeam(server.orm, id, LEVELS.avanzado);
      return '1 equipo';
    },
  },
};

describe.each(Object.entries(cases))('%s', (_name, c) => {
  it('creates, lists, updates and deletes (admin), with the answers of docs/design.md section 4', async () => {
    const body = await c.body();
    const create = await asAdmin('POST', `/api/${c.create}`, body);
    expect(create.statusCode).toBe(200);
    expect(create.json()).toMatchObject({
      success: true,
      message: MESSAGES.created,
      data: c.expectRow(body),
    });
    const id = create.json().data.id as number;

    const list = await call('GET', `/api/${c.list}`, judgeToken);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ success: true, message: '' });
    expect(list.json().data.find((r: { id: number }) => r.id === id)).toMatchObject(c.expectRow(body));

    const changed = await c.body();
    const update = await asAdmin('POST', `/api/${c.update}`, { ...changed, id });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({
      success: true,
      message: MESSAGES.saved,
      data: { id, ...c.expectRow(changed) },
    });

    const before = await count(c.table);
    const remove = await asAdmin('GET', `/api/${c.remove}/${id}`);
    expect(remove.statusCode).toBe(200);
    expect(remove.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect(await count(c.table)).toBe(before - 1);
  });

  it.each(c.required)('answers 422 without %s and writes nothing', async (field) => {
    const body = await c.body();
    delete body[field];
    const before = await count(c.table);
    const res = await asAdmin('POST', `/api/${c.create}`, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, message: MESSAGES.validation });
    expect(res.json().errors[field]).toEqual([MESSAGES.required]);
    expect(await count(c.table)).toBe(before);
  });

  it('answers 401 to anonymous and 403 to a judge on every write', async () => {
    expect((await call('GET', `/api/${c.list}`)).statusCode).toBe(401);
    const body = await c.body();
    const before = await count(c.table);
    for (const [method, url, payload] of [
      ['POST', `/api/${c.create}`, body],
      ['POST', `/api/${c.update}`, { ...body, id: 1 }],
      ['GET', `/api/${c.remove}/1`, undefined],
    ] as const) {
      expect((await call(method, url, undefined, payload)).statusCode).toBe(401);
      const res = await call(method, url, judgeToken, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.forbidden);
    }
    expect(await count(c.table)).toBe(before);
  });

  it('answers 404 to update and delete of an id that does not exist', async () => {
    const update = await asAdmin('POST', `/api/${c.update}`, { ...(await c.body()), id: 987654 });
    expect(update.statusCode).toBe(404);
    expect(update.json().success).toBe(false);
    expect((await asAdmin('GET', `/api/${c.remove}/987654`)).statusCode).toBe(404);
  });

  it('refuses to delete a row in use with 409 naming the use, and keeps the row', async () => {
    const id = await created(c.create, await c.body());
    const fragment = await c.use(id);
    const res = await asAdmin('GET', `/api/${c.remove}/${id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toContain(fragment);
    const list = await asAdmin('GET', `/api/${c.list}`);
    expect(list.json().data.map((r: { id: number }) => r.id)).toContain(id);
  });
});

describe('catalogue rules beyond CRUD', () => {
  it('refuses a process name that exists ignoring case, with 409', async () => {
    await created('createProcess', { name: 'Discord.exe' });
    const res = await asAdmin('POST', '/api/createProcess', { name: 'discord.EXE' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Ya existe el proceso "Discord.exe".');
  });

  it('refuses a process name with a folder', async () => {
    const res = await asAdmin('POST', '/api/createProcess', { name: 'C:\\Windows\\notepad.exe' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name[0]).toMatch(/sin carpetas/);
  });

  it('adds the common catalogue once, skipping names present', async () => {
    await created('createProcess', { name: 'CHROME.EXE' });
    const first = await asAdmin('POST', '/api/addCommonProcesses');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.skipped).toBeGreaterThanOrEqual(2); // CHROME.EXE and Discord.exe above
    expect(first.json().data.added + first.json().data.skipped).toBe(COMMON_FORBIDDEN_PROCESSES.length);
    const second = await asAdmin('POST', '/api/addCommonProcesses');
    expect(second.json().data).toEqual({ added: 0, skipped: COMMON_FORBIDDEN_PROCESSES.length });
  });

  it('derives the calendar from the date: A for January to June, B for July to December', async () => {
    const a = await asAdmin('POST', '/api/createContest', { date: '2027-06-30' });
    expect(a.json().data.calendar).toBe('2027A');
    const b = await asAdmin('POST', '/api/createContest', { date: '2027-07-01' });
    expect(b.json().data.calendar).toBe('2027B');
    const bad = await asAdmin('POST', '/api/createContest', { date: '2027-02-30' });
    expect(bad.statusCode).toBe(422);
  });

  it('replaces a contest blocked set and lists it with processes.name; judges may read it', async () => {
    const contest = await created('createContest', { date: '2018-05-05' });
    const p1 = await created('createProcess', { name: 'lab-remote.exe' });
    const p2 = await created('createProcess', { name: 'lab-record.exe' });
    const p3 = await created('createProcess', { name: 'lab-viewer.exe' });
    const set = await asAdmin('POST', '/api/createBlockedProcessForContest', {
      contests_id: contest,
      processes_id: [p1, p2],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().message).toBe(MESSAGES.created);
    const replaced = await asAdmin('POST', '/api/createBlockedProcessForContest', {
      contests_id: contest,
      processes_id: [p2, p3, p3],
    });
    expect(replaced.json().data.map((r: { processes: { name: string } }) => r.processes.name)).toEqual([
      'lab-record.exe',
      'lab-viewer.exe',
    ]);
    const read = await call('GET', `/api/processContest/${contest}`, judgeToken);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(replaced.json().data);
    expect(read.json().data[0]).toMatchObject({
      contests_id: contest,
      processes_id: p2,
      processes: { id: p2 },
    });

    const unknown = await asAdmin('POST', '/api/createBlockedProcessForContest', {
      contests_id: contest,
      processes_id: [p1, 999999],
    });
    expect(unknown.statusCode).toBe(422);
    expect((await call('GET', `/api/processContest/${contest}`, judgeToken)).json().data).toHaveLength(2);
    expect((await asAdmin('GET', '/api/processContest/999999')).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/api/createBlockedProcessForContest', judgeToken, {
          contests_id: contest,
          processes_id: [],
        })
      ).statusCode,
    ).toBe(403);
  });

  it('names every kind of use in the 409, teams before exercises, counted by the modules that own them', async () => {
    const level = await created('createLevel', { level: unique('Olímpico') });
    const contest = await created('createContest', { date: '2020-06-10' });
    await createTeam(server.orm, contest, level);
    await createTeam(server.orm, contest, level);
    await server.orm.em
      .fork()
      .execute(
        'insert into exercises (path, original_name, levels_id, contests_id, created_at, updated_at) values (?, ?, ?, ?, now(), now())',
        ['usos.pdf', 'usos.pdf', level, contest],
      );
    expect((await asAdmin('GET', `/api/deleteLevel/${level}`)).json().message).toBe(
      'No se puede eliminar el nivel: lo usan 2 equipos y 1 ejercicio.',
    );
    expect((await asAdmin('GET', `/api/deleteContest/${contest}`)).json().message).toBe(
      'No se puede eliminar el concurso: tiene 2 equipos y 1 ejercicio.',
    );
    const process = await created('createProcess', { name: unique('usos.exe') });
    for (const contests_id of [contest, await created('createContest', { date: '2020-06-11' })]) {
      await asAdmin('POST', '/api/createBlockedProcessForContest', { contests_id, processes_id: [process] });
    }
    expect((await asAdmin('GET', `/api/deleteProcess/${process}`)).json().message).toBe(
      "No se puede eliminar el proceso: está bloqueado en 2 concursos. Quítelo primero con 'Asignar procesos'.",
    );
  });

  it('refuses to delete the three levels of the board', async () => {
    const res = await asAdmin('GET', `/api/deleteLevel/${LEVELS.intermedio}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/niveles del tablero/);
  });

  it('answers 422 when a department names a school that does not exist', async () => {
    const before = await count('departaments');
    const res = await asAdmin('POST', '/api/createDepartament', { name: 'X', type: 0, schools_id: 999999 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ schools_id: ['La escuela seleccionada no existe.'] });
    expect(await count('departaments')).toBe(before);
  });
});

describe('strict input typing', () => {
  const schoolNames = async () =>
    (
      await server.orm.em.fork().execute<Array<{ id: number; name: string }>>('select id, name from schools')
    ).map((r) => `${r.id}:${r.name}`);

  it('refuses {"id": true} instead of reading it as 1, and changes nothing', async () => {
    const id = await created('createSchool', { name: unique('Escuela estricta') });
    const before = await schoolNames();
    for (const bad of [true, false, [id], 1.5, '1.0', ` ${id}`]) {
      const res = await asAdmin('POST', '/api/updateSchool', { id: bad, name: 'Cambiada' });
      expect([bad, res.statusCode]).toEqual([bad, 422]);
      expect(res.json()).toMatchObject({ success: false, message: MESSAGES.validation });
      expect(Object.keys(res.json().errors)).toEqual(['id']);
    }
    expect(await schoolNames()).toEqual(before);
    // A canonical digit string is what a select or a path sends: still accepted.
    const ok = await asAdmin('POST', '/api/updateSchool', {
      id: String(id),
      name: 'Escuela estricta cambiada',
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses "0x10", exponents and unsafe integers in a body and in a path', async () => {
    const school = await created('createSchool', { name: unique('Escuela hex') });
    const before = await count('departaments');
    for (const schools_id of ['0x10', '1e1', '9007199254740993', true]) {
      const res = await asAdmin('POST', '/api/createDepartament', { name: 'Hex', type: 0, schools_id });
      expect([schools_id, res.statusCode]).toEqual([schools_id, 422]);
      expect(res.json().errors.schools_id).toHaveLength(1);
    }
    const typed = await asAdmin('POST', '/api/createDepartament', {
      name: 'Hex',
      type: true,
      schools_id: school,
    });
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors).toEqual({ type: ['Seleccione Interno o Externo'] });
    expect(await count('departaments')).toBe(before);

    const schools = await count('schools');
    for (const url of [
      `/api/deleteSchool/0x${school.toString(16)}`,
      '/api/deleteSchool/1e1',
      '/api/deleteSchool/-1',
    ]) {
      const res = await asAdmin('GET', url);
      expect([url, res.statusCode]).toEqual([url, 422]);
      expect(Object.keys(res.json().errors)).toEqual(['id']);
    }
    expect(await count('schools')).toBe(schools);
    // The select's string form keeps working.
    const ok = await asAdmin('POST', '/api/createDepartament', {
      name: 'Dígitos',
      type: '1',
      schools_id: String(school),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ type: 1, schools_id: school });
  });

  it('refuses names with a NUL, other control characters or a lone surrogate, storing nothing', async () => {
    const before = await count('schools');
    for (const [name, message] of [
      ['CU\u0000CEI', INPUT_MESSAGES.controlCharacters],
      ['CUCEI\u0007', INPUT_MESSAGES.controlCharacters],
      ['Dos\nlíneas', INPUT_MESSAGES.controlCharacters],
      ['C1\u0085', INPUT_MESSAGES.controlCharacters],
      ['Mitad \ud83d', INPUT_MESSAGES.invalidCharacters],
    ] as const) {
      const res = await asAdmin('POST', '/api/createSchool', { name });
      expect([name, res.statusCode]).toEqual([name, 422]);
      expect(res.json().errors).toEqual({ name: [message] });
    }
    const level = await asAdmin('POST', '/api/createLevel', { level: 'Nivel\u0000' });
    expect(level.statusCode).toBe(422);
    expect(await count('schools')).toBe(before);
    // Spaces around are trimmed; accents and emoji are printable.
    const ok = await asAdmin('POST', '/api/createSchool', { name: '  Escuela de Ingeniería 🚀 ' });
    expect(ok.json().data.name).toBe('Escuela de Ingeniería 🚀');
  });
});

describe('catalogue changes reach open screens', () => {
  it('pushes catalog.changed after a write, and board.reset when the contests change', async () => {
    const screen = await connectSocket(server.url, judgeToken);
    try {
      const changed = nextEvent(screen, 'catalog.changed');
      await created('createSchool', { name: 'Escuela en vivo' });
      expect(await changed).toEqual({ catalog: 'schools' });

      const reset = nextEvent(screen, 'board.reset');
      const contestChanged = nextEvent(screen, 'catalog.changed');
      await created('createContest', { date: '2030-01-01' });
      await reset;
      expect(await contestChanged).toEqual({ catalog: 'contests' });
    } finally {
      screen.close();
    }
  });
});
