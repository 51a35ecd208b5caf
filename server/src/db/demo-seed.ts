import type { EntityManager } from '@mikro-orm/mysql';
import type { EDUCATION_LEVELS } from '@concurso/shared';
import {
  DEPARTAMENT_TYPES,
  LEVELS,
  TEAM_STATUS,
  USER_TYPES,
  calendarOf,
  seededRandom,
} from '@concurso/shared';
import {
  Career,
  Coach,
  Contest,
  ContestProcess,
  Departament,
  Level,
  Member,
  Process,
  School,
  StatusTeam,
  Team,
  TypeUser,
  User,
} from './entities.js';
import { hashPassword } from '../lib/passwords.js';

/**
 * Demo data of `npm run seed:demo` (docs/design.md section 7): a realistic contest of Mexican
 * universities. Everything below is fixed or drawn from a fixed-seed generator, so two fresh
 * databases seeded on the same day hold the same rows.
 */

/** Username of the demo judge. */
const DEMO_JUDGE_USERNAME = 'juez';
/**
 * Password of the demo judge when `DEMO_JUDGE_PASSWORD` is unset. It passes the staff password policy
 * of `passwordProblem`: 10 characters or more, without the username `juez`, not common.
 */
export const DEFAULT_DEMO_JUDGE_PASSWORD = 'jurado-concurso-2026';

/** Forbidden executables of the demo blocked set: browsers, chat, remote desktop, streaming, AI assistants. */
const DEMO_PROCESSES: readonly string[] = [
  'chrome.exe',
  'firefox.exe',
  'msedge.exe',
  'opera.exe',
  'brave.exe',
  'Discord.exe',
  'Telegram.exe',
  'WhatsApp.exe',
  'slack.exe',
  'Teams.exe',
  'Zoom.exe',
  'AnyDesk.exe',
  'TeamViewer.exe',
  'obs64.exe',
  'ChatGPT.exe',
  'Copilot.exe',
  'firefox',
  'chromium',
  'google-chrome',
  'discord',
  'telegram-desktop',
];

/** One school of the demo: its departaments (name → careers) and coaches (name, educational level). */
interface SchoolSeed {
  name: string;
  departaments: Readonly<Record<string, readonly string[]>>;
  coaches: ReadonlyArray<readonly [name: string, educationalLevel: (typeof EDUCATION_LEVELS)[number]]>;
}

/** The host school (CUCEI, first) has internal departments (type 0); the guests' are external (type 1). */
const SCHOOLS: readonly SchoolSeed[] = [
  {
    name: 'Centro Universitario de Ciencias Exactas e Ingenierías',
    departaments: {
      'Departamento de Ciencias Computacionales': [
        'Ingeniería en Computación',
        'Licenciatura en Informática',
      ],
      'Departamento de Electrónica': ['Ingeniería en Comunicaciones y Electrónica'],
    },
    coaches: [
      ['Dra. María Fernanda López Ruiz', 'Doctorado'],
      ['Mtro. José Luis Hernández Castillo', 'Maestría'],
    ],
  },
  {
    name: 'Instituto Tecnológico de Morelia',
    departaments: {
      'Departamento de Sistemas y Computación': [
        'Ingeniería en Sistemas Computacionales',
        'Ingeniería en Tecnologías de la Información y Comunicaciones',
      ],
    },
    coaches: [
      ['Ing. Ricardo Sánchez Villanueva', 'Licenciatura/Ingeniería'],
      ['Dra. Adriana Gómez Cervantes', 'Doctorado'],
    ],
  },
  {
    name: 'Facultad de Ingeniería UNAM',
    departaments: {
      'División de Ingeniería Eléctrica': ['Ingeniería en Computación', 'Ingeniería en Telecomunicaciones'],
    },
    coaches: [
      ['Dr. Alejandro Ramírez Ortega', 'PosDoctorado'],
      ['Mtra. Gabriela Torres Medina', 'Maestría'],
    ],
  },
  {
    name: 'Instituto Tecnológico y de Estudios Superiores de Occidente',
    departaments: {
      'Departamento de Electrónica, Sistemas e Informática': ['Ingeniería en Sistemas Computacionales'],
    },
    coaches: [
      ['Mtro. Fernando Aguilar Rosas', 'Maestría'],
      ['Lic. Patricia Navarro Delgado', 'Licenciatura/Ingeniería'],
    ],
  },
];

/** Ten team names per level, unique within the contest. */
const TEAM_NAMES: Record<number, readonly string[]> = {
  [LEVELS.basico]: [
    'Hola Mundo',
    'Los Compiladores',
    'Ciclo Infinito',
    'Pila Vacía',
    'Los Tacos de Bits',
    'Off by One',
    'Punto y Coma',
    'Los Novatos del Código',
    'Monarcas Binarios',
    'Variables Sin Nombre',
  ],
  [LEVELS.intermedio]: [
    'Bit a Bit',
    'Los Punteros Locos',
    'Divide y Vencerás',
    'Búsqueda Binaria',
    'Los Recursivos',
    'Memoria Dinámica',
    'Pumas Binarios',
    'Árbol Binario',
    'Los Bytes Purépechas',
    'Código Tapatío',
  ],
  [LEVELS.avanzado]: [
    'Segmentation Fault',
    'Dijkstra y sus Amigos',
    'Programación Dinámica',
    'Grafo Conexo',
    'Complejidad Cero',
    'Heap de Campeones',
    'Los Greedy',
    'Backtracking Team',
    'Stack Overflow MX',
    'Fuerza Bruta',
  ],
};

/** School (index into SCHOOLS) of the i-th team of a level: the host brings the most teams. */
const TEAM_SCHOOL = [0, 1, 0, 2, 3, 0, 1, 2, 0, 3] as const;

/** Semesters members of each level are drawn from. */
const LEVEL_SEMESTERS: Record<number, readonly [number, number]> = {
  [LEVELS.basico]: [1, 3],
  [LEVELS.intermedio]: [3, 6],
  [LEVELS.avanzado]: [6, 10],
};

const FIRST_NAMES = [
  'Ana Sofía',
  'Diego',
  'Valeria',
  'Luis Ángel',
  'Ximena',
  'José Manuel',
  'Camila',
  'Emiliano',
  'Regina',
  'Santiago',
  'Daniela',
  'Carlos Eduardo',
  'Fernanda',
  'Jesús Alberto',
  'Andrea',
  'Miguel Ángel',
  'Paulina',
  'Juan Pablo',
  'Mariana',
  'Óscar',
  'Itzel',
  'Ricardo',
  'Guadalupe',
  'Alejandro',
  'Renata',
  'Sebastián',
  'Karla',
  'Héctor',
  'Alondra',
  'Iván',
] as const;

const SURNAMES = [
  'García',
  'Hernández',
  'Martínez',
  'López',
  'González',
  'Rodríguez',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Flores',
  'Torres',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Gutiérrez',
  'Ortiz',
  'Chávez',
  'Ruiz',
  'Mendoza',
  'Jiménez',
  'Vázquez',
  'Castillo',
  'Domínguez',
  'Aguilar',
  'Navarro',
  'Ibarra',
  'Zúñiga',
] as const;

/** Demo participant accounts (no password: participants do not sign in with one). */
const PARTICIPANT_USERS = [
  { name: 'Ana Sofía Martínez Díaz', username: 'ana.martinez' },
  { name: 'Diego Hernández Reyes', username: 'diego.hernandez' },
] as const;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function intBetween(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** The local calendar day of `date` as `YYYY-MM-DD`. */
function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The term of a `YYYY-MM-DD` date (`2026-11-21` → `2026B`), the shared rule of docs/design.md section 3. */
export { calendarOf };

/** What `seedDemo` did. */
export interface DemoSeedResult {
  /** False when demo (or any) teams were already there and nothing changed. */
  created: boolean;
  /** The demo contest, or the active contest when nothing was created (0 when there is none). */
  contestId: number;
  /** Teams in that contest. */
  teams: number;
  /** `2026B`-style term of that contest ('' when there is none). */
  calendar: string;
  /** Members created (0 when nothing was created). */
  members: number;
  /** Processes in the demo contest's blocked set (0 when nothing was created). */
  processes: number;
  /** The judge account when this call created it (with its clear password, to announce); else null. */
  judge: { username: string; password: string } | null;
}

/** Options of `seedDemo`, mainly for tests. */
export interface DemoSeedOptions {
  /** Judge password; default `DEMO_JUDGE_PASSWORD` or `jurado-concurso-2026`. */
  judgePassword?: string;
  /** The contest's day; default today (local time). */
  today?: Date;
}

/**
 * Loads the demo contest of docs/design.md section 7 in one transaction: schools, departments, careers,
 * coaches, a contest dated today (made the active one), 30 teams (10 per seeded level) with 2–3 members each, the
 * blocked-process catalogue assigned to the contest, a judge `juez` and two participants.
 * Runs once: when any team exists already it changes nothing and returns `created: false`.
 * Rows that may already exist on their own (the judge, participants, processes by name) are reused,
 * never overwritten.
 */
export async function seedDemo(em: EntityManager, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const judgePassword =
    options.judgePassword ?? (process.env.DEMO_JUDGE_PASSWORD || DEFAULT_DEMO_JUDGE_PASSWORD);
  const date = localIsoDate(options.today ?? new Date());
  const calendar = calendarOf(date);
  // Cheap check first so a repeated run does not hash; the transaction checks again.
  if ((await em.count(Team, {})) > 0) return existingResult(em);
  // Hashing is slow; do it before opening the transaction.
  const judgeHash = await hashPassword(judgePassword);

  return em.transactional(async (tem) => {
    if ((await tem.count(Team, {})) > 0) return existingResult(tem);

    const random = seededRandom(20261121);

    // The demo is there to be seen: its contest becomes the active one.
    await tem.nativeUpdate(Contest, { activeKey: 1 }, { activeKey: null });
    const contest = tem.create(Contest, { calendar, date, activeKey: 1 });

    // Schools, departments, careers and coaches, kept per school for the teams below.
    const perSchool = SCHOOLS.map((seed, i) => {
      const school = tem.create(School, { name: seed.name });
      const type = i === 0 ? DEPARTAMENT_TYPES.internal : DEPARTAMENT_TYPES.external;
      const careers = Object.entries(seed.departaments).flatMap(([name, careerNames]) => {
        const departament = tem.create(Departament, { name, type, school });
        return careerNames.map((career) => tem.create(Career, { name: career, departament }));
      });
      const coaches = seed.coaches.map(([name, educationalLevel]) =>
        tem.create(Coach, { name, educationalLevel }),
      );
      return { careers, coaches, teams: 0 };
    });

    // Teams and members.
    const usedMemberNames = new Set<string>();
    const usedCodes = new Set<string>();
    const year = Number(date.slice(0, 4));
    let teams = 0;
    let members = 0;
    for (const levelId of [LEVELS.basico, LEVELS.intermedio, LEVELS.avanzado]) {
      const names = TEAM_NAMES[levelId]!;
      const [minSemester, maxSemester] = LEVEL_SEMESTERS[levelId]!;
      names.forEach((teamName, i) => {
        const school = perSchool[TEAM_SCHOOL[i % TEAM_SCHOOL.length]!]!;
        const coach = school.coaches[school.teams % school.coaches.length]!;
        school.teams += 1;
        const team = tem.create(
          Team,
          {
            name: teamName,
            level: tem.getReference(Level, levelId),
            coach,
            contest,
            statusTeam: tem.getReference(StatusTeam, TEAM_STATUS.active),
          },
          // `partial`: the agent key columns stay null (their `hidden` typing would demand a value).
          { partial: true },
        );
        teams += 1;
        const size = (teams + levelId) % 4 === 0 ? 2 : 3;
        for (let m = 0; m < size; m++) {
          let name: string;
          do {
            name = `${pick(random, FIRST_NAMES)} ${pick(random, SURNAMES)} ${pick(random, SURNAMES)}`;
          } while (usedMemberNames.has(name));
          usedMemberNames.add(name);
          const semester = intBetween(random, minSemester, maxSemester);
          // University codes start with 2 and the admission year's last two digits: `219345678`.
          const admission = (year - Math.ceil(semester / 2)) % 100;
          let code: string;
          do {
            code = `2${String(admission).padStart(2, '0')}${String(intBetween(random, 0, 999_999)).padStart(6, '0')}`;
          } while (usedCodes.has(code));
          usedCodes.add(code);
          members += 1;
          // About one member in twelve has no career on record ('Sin carrera').
          const career = members % 12 === 5 ? null : pick(random, school.careers);
          tem.create(Member, { code, name, semester, team, contest, career });
        }
      });
    }

    // Blocked processes: reuse catalogue rows with the same name (compared ignoring case).
    const existing = await tem.find(Process, { name: { $in: [...DEMO_PROCESSES] } });
    const byName = new Map(existing.map((p) => [p.name.toLowerCase(), p]));
    for (const name of DEMO_PROCESSES) {
      const proc = byName.get(name.toLowerCase()) ?? tem.create(Process, { name });
      byName.set(name.toLowerCase(), proc);
      tem.create(ContestProcess, { contest, process: proc });
    }

    // Users: the judge and two participants, unless those usernames are taken already.
    const usernames = [DEMO_JUDGE_USERNAME, ...PARTICIPANT_USERS.map((u) => u.username)];
    const taken = new Set(
      (await tem.find(User, { username: { $in: usernames } }, { fields: ['username'] })).map(
        (u) => u.username,
      ),
    );
    let judge: DemoSeedResult['judge'] = null;
    if (!taken.has(DEMO_JUDGE_USERNAME)) {
      tem.create(User, {
        name: 'Juez de demostración',
        username: DEMO_JUDGE_USERNAME,
        password: judgeHash,
        type: tem.getReference(TypeUser, USER_TYPES.judge),
      });
      judge = { username: DEMO_JUDGE_USERNAME, password: judgePassword };
    }
    for (const u of PARTICIPANT_USERS) {
      if (taken.has(u.username)) continue;
      tem.create(
        User,
        {
          name: u.name,
          username: u.username,
          password: null,
          type: tem.getReference(TypeUser, USER_TYPES.participant),
        },
        // `partial`: `password` is nullable, but its `hidden` typing does not say so.
        { partial: true },
      );
    }

    await tem.flush();
    return {
      created: true,
      contestId: contest.id,
      teams,
      calendar,
      members,
      processes: DEMO_PROCESSES.length,
      judge,
    };
  });
}

/** The result when nothing is created: the active contest and its teams. */
async function existingResult(em: EntityManager): Promise<DemoSeedResult> {
  const contest = await em.findOne(Contest, { activeKey: 1 });
  const teams = contest ? await em.count(Team, { contest }) : 0;
  return {
    created: false,
    contestId: contest?.id ?? 0,
    teams,
    calendar: contest?.calendar ?? '',
    members: 0,
    processes: 0,
    judge: null,
  };
}
