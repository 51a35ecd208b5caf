import {
  IMPORT_COLUMNS,
  IMPORT_EXAMPLE_TEAM,
  IMPORT_MESSAGES,
  MAX_TEAM_MEMBERS,
  MESSAGES,
  careerLabel,
  foldName,
  importRowSchema,
  type ImportColumnKey,
  type ImportError,
  type ImportTeam,
} from '@concurso/shared';
import type { SheetRow } from './import-rows.js';

/** A catalogue row an imported name may refer to (a level, a coach, a career). */
interface NamedRef {
  id: number;
  name: string;
}

/** A career, with its departament's name: a file may need it to say which career. */
interface CareerRef extends NamedRef {
  departament: string;
}

/**
 * What the checks need from the database: the catalogues (all of them: they are small) and, of the
 * chosen contest, the teams and member codes the file's names and codes collide with.
 */
export interface ImportLookups {
  levels: readonly NamedRef[];
  coaches: readonly NamedRef[];
  careers: readonly CareerRef[];
  /** Names of the contest's teams among the file's team names (`findContestTeamNames`). */
  existingTeams: readonly string[];
  /** Members of the contest with one of the file's codes (`findTakenCodes`). */
  takenCodes: ReadonlyArray<{ code: string; team: string }>;
}

/** A member the import creates. */
interface PlannedMember {
  code: string;
  name: string;
  semester: number;
  careers_id: number;
  /** The career as the members form shows it: 'Ingeniería en Computación (Ciencias Computacionales)'. */
  career: string;
}

/** A team the import creates, with its members; ids are 0 where the name was not found. */
export interface PlannedTeam {
  name: string;
  levels_id: number;
  coaches_id: number;
  level: string;
  coach: string;
  members: PlannedMember[];
}

/** The outcome of the checks: the teams (from the rows that passed), every problem by line, the rows read. */
export interface ImportCheck {
  teams: PlannedTeam[];
  errors: ImportError[];
  members: number;
}

/** The file's team names and codes, as written: what `ImportLookups` must be gathered for. */
export function importKeys(rows: readonly SheetRow[]): { teamNames: string[]; codes: string[] } {
  const teamNames = new Set<string>();
  const codes = new Set<string>();
  for (const { cells } of rows) {
    if (cells.equipo) teamNames.add(cells.equipo);
    if (cells.codigo) codes.add(cells.codigo);
  }
  return { teamNames: [...teamNames], codes: [...codes] };
}

const LABELS = Object.fromEntries(IMPORT_COLUMNS.map((column) => [column.key, column.label])) as Record<
  ImportColumnKey,
  string
>;

/** A catalogue by folded name (or `keyOf`); a name may be held by several rows (then it is ambiguous). */
function byFolded(
  rows: readonly NamedRef[],
  keyOf: (row: NamedRef, index: number) => string = (row) => row.name,
): Map<string, NamedRef[]> {
  const map = new Map<string, NamedRef[]>();
  for (const [index, row] of rows.entries()) {
    const key = foldName(keyOf(row, index));
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  }
  return map;
}

/** What a name found in a catalogue: the row, or the reason it was not found (a Spanish message). */
type Lookup = { ref: NamedRef } | { problem: string };

function lookup(
  catalog: Map<string, NamedRef[]>,
  value: string,
  unknown: (name: string) => string,
  ambiguous: string,
): Lookup {
  const found = catalog.get(foldName(value)) ?? [];
  if (found.length === 1) return { ref: found[0]! };
  if (found.length === 0) return { problem: unknown(value) };
  return { problem: IMPORT_MESSAGES.ambiguous(ambiguous, value, found.length) };
}

/** The careers by folded name and by folded label; each row's `name` is its label ('Carrera (Departamento)'). */
interface CareerCatalog {
  byName: Map<string, NamedRef[]>;
  byLabel: Map<string, NamedRef[]>;
}

function careerCatalog(careers: readonly CareerRef[]): CareerCatalog {
  const labelled = careers.map((row) => ({ id: row.id, name: careerLabel(row.name, row.departament) }));
  return {
    byName: byFolded(labelled, (_, i) => careers[i]!.name),
    byLabel: byFolded(labelled, (row) => row.name),
  };
}

/**
 * A career by its name, or, when two departaments share that name, by 'Carrera (Departamento)' as the
 * members form writes it; the row found carries the label. A name held by several careers
 * is ambiguous, with an example of the form that says which.
 */
function lookupCareer(catalog: CareerCatalog, value: string): Lookup {
  const folded = foldName(value);
  const named = catalog.byName.get(folded) ?? [];
  if (named.length === 1) return { ref: named[0]! };
  const labelled = catalog.byLabel.get(folded) ?? [];
  if (labelled.length === 1) return { ref: labelled[0]! };
  if (named.length === 0) return { problem: IMPORT_MESSAGES.unknownCareer(value) };
  return { problem: IMPORT_MESSAGES.ambiguousCareer(value, named.length, named[0]!.name) };
}

/** The level or the coach first found in the catalogue for a team, with the line and text that named it. */
interface FirstRef {
  id: number;
  raw: string;
  line: number;
}

/** A team as the rows build it: the first level and coach found for it, its first line. */
interface TeamDraft {
  plan: PlannedTeam;
  firstLine: number;
  rows: number;
  first: { nivel: FirstRef | null; coach: FirstRef | null };
  /** Folded level and coach texts not found in the catalogue, already reported for this team. */
  reported: { nivel: Set<string>; coach: Set<string> };
}

/**
 * The team's level or coach (`column`) from one row. A name not in the catalogue is reported once per
 * team (its first line: one bad coach line once brought a follow-on error on every later line)
 * and decides nothing. The first row naming one in the catalogue sets the plan's; a later row must
 * name the same one, else its problem.
 */
function settleTeamRef(
  draft: TeamDraft,
  column: 'nivel' | 'coach',
  text: string,
  found: Lookup,
  line: number,
): string | null {
  const plan = draft.plan;
  if ('problem' in found) {
    const folded = foldName(text);
    if (draft.reported[column].has(folded)) return null;
    draft.reported[column].add(folded);
    // The preview names what was written until a row names a known one.
    if (column === 'nivel' && !plan.levels_id) plan.level ||= text;
    if (column === 'coach' && !plan.coaches_id) plan.coach ||= text;
    return found.problem;
  }
  const seen = draft.first[column];
  if (seen) {
    return seen.id === found.ref.id
      ? null
      : IMPORT_MESSAGES.teamDisagrees(plan.name, column, text, seen.line, seen.raw);
  }
  draft.first[column] = { id: found.ref.id, raw: text, line };
  if (column === 'nivel') {
    plan.level = found.ref.name;
    plan.levels_id = found.ref.id;
  } else {
    plan.coach = found.ref.name;
    plan.coaches_id = found.ref.id;
  }
  return null;
}

/** The draft of the team named `name` (folded `key`), made on its first line. */
function draftFor(teams: Map<string, TeamDraft>, key: string, name: string, line: number): TeamDraft {
  let draft = teams.get(key);
  if (!draft) {
    draft = {
      plan: { name, levels_id: 0, coaches_id: 0, level: '', coach: '', members: [] },
      firstLine: line,
      rows: 0,
      first: { nivel: null, coach: null },
      reported: { nivel: new Set(), coach: new Set() },
    };
    teams.set(key, draft);
  }
  return draft;
}

/**
 * Checks every member row of a registration file and plans the teams it creates. Per row:
 * every field present and valid by `importRowSchema` ('Falta el campo código'; semester 1..10); level,
 * coach and career found by name ignoring accents and case ('Nivel desconocido «Experto»'); the code
 * neither in the contest already nor earlier in the file. Per team (rows grouped by folded name): the
 * name not taken in the contest (the import creates teams, it never extends one), one level and one
 * coach across its rows, at most `MAX_TEAM_MEMBERS` members. Team problems are reported on the line
 * that shows them (its first line, or the disagreeing row). Errors come sorted by line.
 */
export function checkImport(rows: readonly SheetRow[], lookups: ImportLookups): ImportCheck {
  const errors: ImportError[] = [];
  const levels = byFolded(lookups.levels);
  const coaches = byFolded(lookups.coaches);
  const careers = careerCatalog(lookups.careers);
  const existing = new Set(lookups.existingTeams.map(foldName));
  const taken = new Map(lookups.takenCodes.map((m) => [foldName(m.code), m.team]));
  const codeLines = new Map<string, number>();
  const teams = new Map<string, TeamDraft>();
  const example = foldName(IMPORT_EXAMPLE_TEAM);

  for (const { line, cells } of rows) {
    const before = errors.length;
    const fail = (message: string) => errors.push({ line, message });
    // The template's example row left in: that alone, and it plans nothing.
    if (cells.equipo && foldName(cells.equipo) === example) {
      fail(IMPORT_MESSAGES.exampleRow);
      continue;
    }

    const parsed = importRowSchema.safeParse(cells);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const label = LABELS[issue.path[0] as ImportColumnKey] ?? String(issue.path[0]);
        fail(
          issue.message === MESSAGES.required
            ? IMPORT_MESSAGES.missingField(label)
            : IMPORT_MESSAGES.fieldProblem(label, issue.message),
        );
      }
    }
    const draft = cells.equipo ? draftFor(teams, foldName(cells.equipo), cells.equipo, line) : null;
    if (draft) draft.rows++;
    // Level and coach: a team's first known one is its own; a later row must agree with it.
    for (const [column, what, unknown] of [
      ['nivel', 'Nivel ambiguo', IMPORT_MESSAGES.unknownLevel],
      ['coach', 'Coach ambiguo', IMPORT_MESSAGES.unknownCoach],
    ] as const) {
      const text = cells[column];
      if (!text) continue;
      const found = lookup(column === 'nivel' ? levels : coaches, text, unknown, what);
      const problem = draft
        ? settleTeamRef(draft, column, text, found, line)
        : 'problem' in found
          ? found.problem
          : null;
      if (problem) fail(problem);
    }
    const career = cells.carrera ? lookupCareer(careers, cells.carrera) : null;
    if (career && 'problem' in career) fail(career.problem);

    if (cells.codigo) {
      const code = foldName(cells.codigo);
      const team = taken.get(code);
      const earlier = codeLines.get(code);
      if (team !== undefined) fail(IMPORT_MESSAGES.codeTaken(cells.codigo, team));
      else if (earlier !== undefined) fail(IMPORT_MESSAGES.codeRepeated(cells.codigo, earlier));
      else codeLines.set(code, line);
    }

    if (!draft) continue;
    // A member is planned only from a row without problems of its own.
    if (errors.length === before && parsed.success && career && 'ref' in career) {
      draft.plan.members.push({
        code: parsed.data.codigo,
        name: parsed.data.nombre,
        semester: parsed.data.semestre,
        careers_id: career.ref.id,
        career: career.ref.name,
      });
    }
  }

  for (const [key, draft] of teams) {
    const { plan, firstLine } = draft;
    if (existing.has(key)) errors.push({ line: firstLine, message: IMPORT_MESSAGES.teamExists(plan.name) });
    if (draft.rows > MAX_TEAM_MEMBERS)
      errors.push({ line: firstLine, message: IMPORT_MESSAGES.tooManyMembers(plan.name, draft.rows) });
  }
  // Stable: a line's problems keep the order they were found in.
  errors.sort((a, b) => a.line - b.line);
  return { teams: [...teams.values()].map((draft) => draft.plan), errors, members: rows.length };
}

/** A planned team as the preview answers it (catalogue spellings; no ids). */
export function previewTeam(team: PlannedTeam): ImportTeam {
  return {
    name: team.name,
    level: team.level,
    coach: team.coach,
    members: team.members.map(({ code, name, semester, career }) => ({ code, name, semester, career })),
  };
}
