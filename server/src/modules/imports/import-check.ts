import {
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  MAX_TEAM_MEMBERS,
  MESSAGES,
  foldName,
  importRowSchema,
  type ImportColumnKey,
  type ImportError,
  type ImportTeam,
} from '@concurso/shared';
import type { SheetRow } from './import-rows.js';

/** A catalogue row an imported name may refer to (a level, a coach, a career). */
export interface NamedRef {
  id: number;
  name: string;
}

/**
 * What the checks need from the database: the catalogues (all of them: they are small) and, of the
 * chosen contest, the teams and member codes the file's names and codes collide with.
 */
export interface ImportLookups {
  levels: readonly NamedRef[];
  coaches: readonly NamedRef[];
  careers: readonly NamedRef[];
  /** Names of the contest's teams among the file's team names (`findContestTeamNames`). */
  existingTeams: readonly string[];
  /** Members of the contest with one of the file's codes (`findTakenCodes`). */
  takenCodes: ReadonlyArray<{ code: string; team: string }>;
}

/** A member the import creates. */
export interface PlannedMember {
  code: string;
  name: string;
  semester: number;
  careers_id: number;
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

/** A catalogue by folded name; a name may be held by several rows (then it is ambiguous). */
function byFoldedName(rows: readonly NamedRef[]): Map<string, NamedRef[]> {
  const map = new Map<string, NamedRef[]>();
  for (const row of rows) {
    const key = foldName(row.name);
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

/** The level or the coach as first written for a team, folded, with the line that wrote it. */
interface FirstText {
  folded: string;
  raw: string;
  line: number;
}

/** A team as the rows build it: the first level and coach written for it, its first line. */
interface TeamDraft {
  plan: PlannedTeam;
  firstLine: number;
  rows: number;
  first: { nivel: FirstText | null; coach: FirstText | null };
}

/**
 * The team's level or coach (`column`) from one row: the first row that writes it sets the plan's name
 * and id (0 when not found in the catalogue); a later row must write the same, else its problem.
 */
function settleTeamRef(
  draft: TeamDraft,
  column: 'nivel' | 'coach',
  text: string,
  found: Lookup | null,
  line: number,
): string | null {
  const seen = draft.first[column];
  if (seen) {
    return seen.folded === foldName(text)
      ? null
      : IMPORT_MESSAGES.teamDisagrees(draft.plan.name, column, text, seen.line, seen.raw);
  }
  draft.first[column] = { folded: foldName(text), raw: text, line };
  const ref = found && 'ref' in found ? found.ref : null;
  if (column === 'nivel') {
    draft.plan.level = ref?.name ?? text;
    draft.plan.levels_id = ref?.id ?? 0;
  } else {
    draft.plan.coach = ref?.name ?? text;
    draft.plan.coaches_id = ref?.id ?? 0;
  }
  return null;
}

/**
 * Checks every member row of a registration file (issue 13) and plans the teams it creates. Per row:
 * every field present and valid by `importRowSchema` ('Falta el campo código'; semester 1..10); level,
 * coach and career found by name ignoring accents and case ('Nivel desconocido «Experto»'); the code
 * neither in the contest already nor earlier in the file. Per team (rows grouped by folded name): the
 * name not taken in the contest (the import creates teams, it never extends one), one level and one
 * coach across its rows, at most `MAX_TEAM_MEMBERS` members. Team problems are reported on the line
 * that shows them (its first line, or the disagreeing row). Errors come sorted by line.
 */
export function checkImport(rows: readonly SheetRow[], lookups: ImportLookups): ImportCheck {
  const errors: ImportError[] = [];
  const levels = byFoldedName(lookups.levels);
  const coaches = byFoldedName(lookups.coaches);
  const careers = byFoldedName(lookups.careers);
  const existing = new Set(lookups.existingTeams.map(foldName));
  const taken = new Map(lookups.takenCodes.map((m) => [foldName(m.code), m.team]));
  const codeLines = new Map<string, number>();
  const teams = new Map<string, TeamDraft>();

  for (const { line, cells } of rows) {
    const before = errors.length;
    const fail = (message: string) => errors.push({ line, message });

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
    const level = cells.nivel
      ? lookup(levels, cells.nivel, IMPORT_MESSAGES.unknownLevel, 'Nivel ambiguo')
      : null;
    const coach = cells.coach
      ? lookup(coaches, cells.coach, IMPORT_MESSAGES.unknownCoach, 'Coach ambiguo')
      : null;
    const career = cells.carrera
      ? lookup(careers, cells.carrera, IMPORT_MESSAGES.unknownCareer, 'Carrera ambigua')
      : null;
    for (const found of [level, coach, career]) if (found && 'problem' in found) fail(found.problem);

    if (cells.codigo) {
      const code = foldName(cells.codigo);
      const team = taken.get(code);
      const earlier = codeLines.get(code);
      if (team !== undefined) fail(IMPORT_MESSAGES.codeTaken(cells.codigo, team));
      else if (earlier !== undefined) fail(IMPORT_MESSAGES.codeRepeated(cells.codigo, earlier));
      else codeLines.set(code, line);
    }

    if (!cells.equipo) continue;
    const teamKey = foldName(cells.equipo);
    let draft = teams.get(teamKey);
    if (!draft) {
      draft = {
        plan: { name: cells.equipo, levels_id: 0, coaches_id: 0, level: '', coach: '', members: [] },
        firstLine: line,
        rows: 0,
        first: { nivel: null, coach: null },
      };
      teams.set(teamKey, draft);
    }
    draft.rows++;
    // The first level and coach written for a team are its own; a later row must agree with them.
    for (const [column, found] of [
      ['nivel', level],
      ['coach', coach],
    ] as const) {
      const problem = cells[column] ? settleTeamRef(draft, column, cells[column], found, line) : null;
      if (problem) fail(problem);
    }
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
