import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { integerSchema, requiredText, rowIntSchema } from './common.js';
import { requiredIdSchema } from './catalogs.js';

/**
 * The bulk import of teams and members: a CSV or XLSX
 * registration file with one row per member, previewed (`POST /api/previewTeamImport`) and imported
 * all or nothing (`POST /api/importTeams`). The server parses and checks the file; the web draws the
 * preview and builds the template from {@link IMPORT_COLUMNS}.
 */

/**
 * The columns of a registration file, in the template's order: `key` is the header as matched
 * (see {@link foldName}: accents, case and spaces ignored, so `Código`, `CODIGO` and ` código ` all
 * match), `header` the template's spelling and the name the messages use ('Falta el campo código').
 */
export const IMPORT_COLUMNS = [
  { key: 'equipo', header: 'Equipo', label: 'equipo' },
  { key: 'nivel', header: 'Nivel', label: 'nivel' },
  { key: 'coach', header: 'Coach', label: 'coach' },
  { key: 'codigo', header: 'Código', label: 'código' },
  { key: 'nombre', header: 'Nombre', label: 'nombre' },
  { key: 'semestre', header: 'Semestre', label: 'semestre' },
  { key: 'carrera', header: 'Carrera', label: 'carrera' },
] as const;
/** The key of one column of a registration file (`'codigo'`). */
export type ImportColumnKey = (typeof IMPORT_COLUMNS)[number]['key'];

/**
 * The team of the template's example row: a file still carrying it is refused on that line
 * (`IMPORT_MESSAGES.exampleRow`), so the example can never become a team.
 */
export const IMPORT_EXAMPLE_TEAM = 'Ejemplo (borre esta fila)';

/** Most bytes of a registration file (5 MB: a 1,000-member CSV is about 100 KB); 413 beyond. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Most member rows one file may carry (a guard on parsing time and memory, far above a real contest). */
export const IMPORT_MAX_ROWS = 5_000;
/**
 * Most rows of an XLSX sheet read, blank ones included (docs/design.md 6a): the header, the
 * member rows and room for the empty rows Excel writes when cells were formatted; reading stops there.
 */
export const IMPORT_MAX_SHEET_ROWS = 4 * IMPORT_MAX_ROWS;
/**
 * Longest an import's upload may take to arrive, in ms (60 s: 5 MB over a slow lab network takes a
 * few seconds). Past it the connection is closed, so a stalled upload cannot hold the one import slot.
 */
export const IMPORT_RECEIVE_TIMEOUT_MS = 60_000;
/** Most entries (parts) of an XLSX's zip (a workbook has about 10 to 30); 413 beyond, before inflating. */
export const IMPORT_XLSX_MAX_ENTRIES = 500;
/**
 * Most bytes an XLSX's entries may declare uncompressed, all added (50 MB: 5,000 members take about
 * 2 MB of XML); 413 beyond, read from the zip's central directory before inflating anything.
 */
export const IMPORT_XLSX_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
/** Most members of one team (the members form's limit, docs/spec.md section 5). */
export const MAX_TEAM_MEMBERS = 20;

/**
 * A name as the import compares it (levels, coaches, careers, team names, codes and headers): Unicode
 * NFD without its combining marks (the accents), lower case, trimmed, inner runs of white space made
 * one space. 'Básico', ' BASICO ' and 'basico' fold to the same text, like the database's
 * `utf8mb4_unicode_ci` comparisons.
 */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The semester of an imported member: an integer 1..10, as a number or digits (an XLSX cell or CSV text). */
export const importSemesterSchema = integerSchema({
  min: 1,
  max: 10,
  outOfRange: 'El semestre debe ser un número entero de 1 a 10',
  notInteger: 'El semestre debe ser un número entero de 1 a 10',
});

/**
 * One member row of the file, its cells as texts, checked field by field with the members form's
 * rules (docs/spec.md section 5): every field required, code up to 50 characters, names up to 255, no
 * control characters, semester 1..10. Names of the level, coach and career are looked up afterwards.
 */
export const importRowSchema = z.object({
  equipo: requiredText(),
  nivel: requiredText(),
  coach: requiredText(),
  codigo: requiredText(50),
  nombre: requiredText(),
  semestre: importSemesterSchema,
  carrera: requiredText(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** Multipart text fields of both import calls (besides the `file`): the contest the teams join. */
export const importFieldsSchema = z.object({ contests_id: requiredIdSchema });

/** One problem of the file: its line (the header is line 1; an XLSX's row number) and a Spanish reason. */
export const importErrorSchema = z.object({
  line: rowIntSchema,
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** A member the import would create, with its career's name as the catalogue spells it. */
export const importMemberSchema = z.object({
  code: z.string(),
  name: z.string(),
  semester: rowIntSchema,
  career: z.string(),
});
export type ImportMember = z.infer<typeof importMemberSchema>;

/** A team the import would create: its name as first written, level and coach as the catalogues spell them. */
export const importTeamSchema = z.object({
  name: z.string(),
  level: z.string(),
  coach: z.string(),
  members: z.array(importMemberSchema),
});
export type ImportTeam = z.infer<typeof importTeamSchema>;

/**
 * How a CSV's bytes were read: `utf-8` (a BOM allowed), or `windows-1252` when they are not
 * UTF-8 (Excel in Spanish saves «CSV (delimitado por comas)» so); null for an XLSX, which has no text
 * encoding of its own to guess.
 */
export const IMPORT_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/**
 * The preview: every team with its members (what the rows that passed would create), every problem
 * by line, `members`, the member rows read, and `encoding`, how a CSV was read (null for an XLSX).
 * Nothing is written; the import is allowed only when `errors` is empty.
 */
export const importPreviewSchema = z.object({
  teams: z.array(importTeamSchema),
  errors: z.array(importErrorSchema),
  members: rowIntSchema,
  encoding: z.enum(IMPORT_ENCODINGS).nullable(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** What an import created: how many teams and members. */
export const importResultSchema = z.object({ teams: rowIntSchema, members: rowIntSchema });
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * The 422 of `importTeams`: the file's problems by line (the preview's `errors`), nothing written.
 * A missing or unknown `contests_id` answers the usual field errors instead (docs/design.md section 4),
 * so `errors` is either shape.
 */
export const importRejectedSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.union([z.array(importErrorSchema), z.record(z.string(), z.array(z.string()))]).optional(),
});

/**
 * One import as 'Importaciones' lists it (an import into the wrong contest is undone in one
 * step): when (ISO 8601) and by whom, into which contest, the file's name, the teams and members it
 * created; `remaining`, its teams still there; `attempts`, theirs added (an undo is allowed only at 0);
 * `undone_at`, when it was undone (null while not).
 */
export const teamImportRowSchema = z.object({
  id: rowIntSchema,
  contests_id: rowIntSchema,
  contest: z.object({ id: rowIntSchema, calendar: z.string() }),
  file_name: z.string(),
  teams: rowIntSchema,
  members: rowIntSchema,
  remaining: rowIntSchema,
  attempts: rowIntSchema,
  created_at: z.string(),
  user: z.object({ id: rowIntSchema, name: z.string() }).nullable(),
  undone_at: z.string().nullable(),
});
export type TeamImportRow = z.infer<typeof teamImportRowSchema>;

/** Whether an import may still be undone: not undone, teams left, and none of them with attempts. */
export function canUndoImport(row: Pick<TeamImportRow, 'undone_at' | 'remaining' | 'attempts'>): boolean {
  return row.undone_at === null && row.remaining > 0 && row.attempts === 0;
}

/** What an undo removed: how many teams (their members, keys and logs went with them). */
export const importUndoneSchema = z.object({ teams: rowIntSchema });

/** The messages of the import, one place for the server and the web. */
export const IMPORT_MESSAGES = {
  rejected: 'El archivo tiene errores; no se importó nada.',
  empty: 'El archivo no tiene filas de integrantes.',
  notSpreadsheet: 'El archivo debe ser una hoja de cálculo .xlsx o un .csv.',
  badXlsx: 'El archivo no es un .xlsx válido.',
  /** A .csv that is not text (a NUL byte): UTF-8 and Windows-1252 are both read. */
  badCsv:
    'El archivo .csv no es texto: guárdelo en Excel como «CSV UTF-8 (delimitado por comas)» o «CSV (delimitado por comas)».',
  /** The preview's note on a CSV read as Windows-1252. */
  readAsWindows1252:
    'El archivo no es UTF-8: se leyó como Windows-1252, la codificación del CSV de Excel en español. Revise que los acentos y las eñes se vean bien antes de importar.',
  missingFile: 'Seleccione el archivo a importar.',
  tooManyRows: `El archivo tiene más de ${IMPORT_MAX_ROWS} filas.`,
  tooLarge: `El archivo supera el límite de ${IMPORT_MAX_BYTES / (1024 * 1024)} MB.`,
  xlsxTooManyEntries: `El archivo .xlsx tiene más de ${IMPORT_XLSX_MAX_ENTRIES} partes internas.`,
  xlsxTooLarge: `El archivo .xlsx descomprimido supera el límite de ${IMPORT_XLSX_MAX_UNZIPPED_BYTES / (1024 * 1024)} MB.`,
  /** A CSV row longer than the import reads (an unclosed quote swallows the rest of the file). */
  rowTooLong: (kb: number) => `La fila supera ${kb} KB; revise que sus comillas estén cerradas`,
  /** 408: the upload did not arrive within `IMPORT_RECEIVE_TIMEOUT_MS`. */
  receiveTimeout: 'El archivo tardó demasiado en llegar; envíelo de nuevo.',
  /** 429: each server process reads one registration file at a time. */
  busy: 'Hay otra importación en curso. Intente de nuevo en un momento.',
  /** A row of the template's example team (`IMPORT_EXAMPLE_TEAM`) left in the file. */
  exampleRow: 'Es la fila de ejemplo de la plantilla: bórrela antes de importar',
  /** 'Falta el campo código'. */
  missingField: (label: string) => `Falta el campo ${label}`,
  missingColumn: (header: string) => `Falta la columna «${header}» en el encabezado`,
  unknownLevel: (name: string) => `Nivel desconocido «${name}»`,
  unknownCoach: (name: string) => `Coach desconocido «${name}»`,
  unknownCareer: (name: string) => `Carrera desconocida «${name}»`,
  /** Two departaments have a career of this name: the file says which as the members form does. */
  ambiguousCareer: (name: string, count: number, example: string) =>
    `Carrera ambigua «${name}»: hay ${count} con ese nombre en el catálogo; escriba también su departamento, por ejemplo «${example}»`,
  /** `what` carries its adjective: 'Nivel ambiguo', 'Coach ambiguo', 'Carrera ambigua'. */
  ambiguous: (what: string, name: string, count: number) =>
    `${what} «${name}»: hay ${count} con ese nombre en el catálogo`,
  codeTaken: (code: string, team: string) =>
    `El código ${code} ya está registrado en el equipo «${team}» de este concurso`,
  codeRepeated: (code: string, line: number) => `El código ${code} se repite (ya está en la línea ${line})`,
  teamExists: (team: string) =>
    `El equipo «${team}» ya existe en este concurso (la importación solo crea equipos nuevos)`,
  teamDisagrees: (team: string, field: string, value: string, line: number, first: string) =>
    `El ${field} «${value}» no coincide con el del equipo «${team}» en la línea ${line} («${first}»)`,
  tooManyMembers: (team: string, count: number) =>
    `El equipo «${team}» tiene ${count} integrantes; el máximo es ${MAX_TEAM_MEMBERS}`,
  /** 'Se importaron N equipos.' */
  imported: (teams: number) => `Se importaron ${teams} ${teams === 1 ? 'equipo' : 'equipos'}.`,
  /** After an import: where it can be undone. */
  undoHint: 'Si fue un error, puede deshacerla en «Importaciones» mientras ningún equipo tenga intentos.',
  /** 'Se deshizo la importación: N equipos eliminados.' */
  undone: (teams: number) =>
    `Se deshizo la importación: ${teams} ${teams === 1 ? 'equipo eliminado' : 'equipos eliminados'}.`,
  alreadyUndone: 'Esa importación ya se deshizo.',
  importNotFound: 'No se encontró la importación.',
  /** 409: a team of the import has attempts; the undo would erase a contest's record. */
  undoHasAttempts: (team: string, attempts: number) =>
    `No se puede deshacer: el equipo «${team}» ya tiene ${attempts} ${attempts === 1 ? 'intento' : 'intentos'}. Elimine sus equipos uno por uno si de verdad sobran.`,
  /** The question before an undo. */
  undoQuestion: (teams: number, calendar: string) =>
    `Se eliminarán ${teams} ${teams === 1 ? 'equipo' : 'equipos'} del concurso ${calendar}, con sus integrantes.`,
  fieldProblem: (label: string, problem: string) => `${label}: ${problem}`,
  required: MESSAGES.required,
} as const;
