/**
 * `npm run bench:import [-- --members 1000 --team-size 4 --runs 3]`: how long the bulk import of teams
 * and members takes (a 1,000-member file previewed in under 2 s and imported in under 5 s on
 * this machine). Builds one registration file of N members (teams of `--team-size`, every level, coach
 * and career by name) as a `;` CSV and as an XLSX (exceljs), starts a real server process as
 * `npm start` runs it (testkit's `startDeployment`: built first when the sources changed, a throwaway
 * database dropped at the end), and for each format times `POST /api/previewTeamImport` and then
 * `POST /api/importTeams` of the file into a fresh active contest, `--runs` times (a new contest each
 * run, so every import creates all its teams). Times are client-side, from sending the multipart
 * request to its parsed answer, over loopback. Prints JSON (times in ms, median of the runs).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, LEVEL_NAMES } from '@concurso/shared';
import { startDeployment } from '@concurso/testkit/deployment';
import type { HttpApi } from '@concurso/testkit/http-api';
import { median as medianOf } from './load/median.js';

const { values } = parseArgs({
  options: {
    members: { type: 'string', default: '1000' },
    'team-size': { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
  },
});
const MEMBERS = Number(values.members);
const TEAM_SIZE = Number(values['team-size']);
const RUNS = Number(values.runs);
if (!(MEMBERS >= 1 && TEAM_SIZE >= 1 && TEAM_SIZE <= 20 && RUNS >= 1)) {
  throw new Error('--members ≥ 1, --team-size 1..20, --runs ≥ 1');
}

const COACHES = ['Dra. María Núñez', 'Mtro. Óscar Ruiz', 'Ing. Lucía Ávila', 'Dr. Ramón Téllez'];
const CAREERS = ['Ingeniería en Computación', 'Licenciatura en Informática', 'Ingeniería en Electrónica'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The registration file's rows: a header, then one row per member (names as a registrar types them). */
function registrationRows(): Array<Array<string | number>> {
  const levels = [1, 2, 3].map((id) => LEVEL_NAMES[id]!);
  const rows: Array<Array<string | number>> = [IMPORT_COLUMNS.map((column) => column.header)];
  for (let i = 0; i < MEMBERS; i++) {
    const team = Math.floor(i / TEAM_SIZE);
    rows.push([
      `Equipo ${String(team + 1).padStart(4, '0')}`,
      levels[team % levels.length]!,
      COACHES[team % COACHES.length]!,
      `${219_000_000 + i}`,
      `Estudiante Número ${i + 1}`,
      (i % 10) + 1,
      CAREERS[i % CAREERS.length]!,
    ]);
  }
  return rows;
}

/** The rows as Spanish Excel saves a CSV UTF-8: a BOM, `;` and CRLF. */
function csvFile(rows: Array<Array<string | number>>): Buffer {
  return Buffer.from(`\uFEFF${rows.map((row) => row.join(';')).join('\r\n')}\r\n`, 'utf8');
}

/** The rows as an .xlsx of one sheet (codes as texts, semesters as numbers). */
async function xlsxFile(rows: Array<Array<string | number>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Registro');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Sends `file` to an import route as an admin; answers the time to the parsed answer (ms) and the answer. */
async function timedUpload(
  api: HttpApi,
  path: string,
  contestId: number,
  file: { name: string; data: Buffer; type: string },
) {
  const form = new FormData();
  form.append('contests_id', String(contestId));
  form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const started = performance.now();
  const res = await fetch(`${api.baseUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${api.token}` },
  });
  const body = (await res.json()) as { data?: { errors?: unknown[]; teams?: unknown }; message?: string };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
  return { ms, body };
}

/** The runs' median (load/median.ts: the mean of the two middle runs for an even count), in ms. */
const median = (xs: number[]) => medianOf(xs) ?? NaN;
const round = (ms: number) => Math.round(ms);

const rows = registrationRows();
const files = [
  { format: 'csv', name: 'registro.csv', data: csvFile(rows), type: 'text/csv' },
  { format: 'xlsx', name: 'registro.xlsx', data: await xlsxFile(rows), type: XLSX_TYPE },
];
const deployment = await startDeployment({ env: { LOGIN_RATE_LIMIT_MAX: '1000' } });
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    void deployment.stop().finally(() => process.exit(130));
  });
}
try {
  const admin = await deployment.admin();
  // The catalogues the file names.
  await admin.createCareers(CAREERS);
  for (const name of COACHES) await admin.createCoach(name);

  const results: Record<string, { preview_ms: number[]; import_ms: number[] }> = {};
  let day = 1;
  for (const file of files) {
    const times = { preview_ms: [] as number[], import_ms: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      // A fresh contest each run, made the active one so the import also pushes its teams to the boards.
      const contestId = await admin.createContest(`2030-01-${String(day++).padStart(2, '0')}`);
      await admin.activateContest(contestId);
      const preview = await timedUpload(admin, '/api/previewTeamImport', contestId, file);
      const errors = preview.body.data?.errors ?? [];
      if (errors.length > 0) throw new Error(`preview: ${JSON.stringify(errors.slice(0, 3))}`);
      const imported = await timedUpload(admin, '/api/importTeams', contestId, file);
      times.preview_ms.push(preview.ms);
      times.import_ms.push(imported.ms);
      console.error(
        `${file.format} run ${run + 1}: preview ${round(preview.ms)} ms, import ${round(imported.ms)} ms (${imported.body.message})`,
      );
    }
    results[file.format] = times;
  }
  console.log(
    JSON.stringify(
      {
        members: MEMBERS,
        teams: Math.ceil(MEMBERS / TEAM_SIZE),
        runs: RUNS,
        file_bytes: Object.fromEntries(files.map((file) => [file.format, file.data.length])),
        ...Object.fromEntries(
          Object.entries(results).map(([format, times]) => [
            format,
            {
              preview_median_ms: round(median(times.preview_ms)),
              import_median_ms: round(median(times.import_ms)),
              preview_runs_ms: times.preview_ms.map(round),
              import_runs_ms: times.import_ms.map(round),
            },
          ]),
        ),
        targets_ms: { preview: 2000, import: 5000 },
        cores: os.availableParallelism(),
      },
      null,
      2,
    ),
  );
} finally {
  await deployment.stop();
}
