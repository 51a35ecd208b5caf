/**
 * The 'Registrar integrantes' form (docs/spec.md sections 2, 5 and 7): repeatable rows of code, name, career
 * and semester, validated per row with the shared member rules and sent as one `createMember` list.
 * Pure: the dialog binds it to react-hook-form's `useFieldArray`.
 */
import { SEMESTERS, membersInputSchema, type MemberInput } from '@concurso/shared';
import type { Resolver } from 'react-hook-form';
import { resolveParse } from '../../ui/form/schema-resolver';

/** One row as the form holds it (select values are strings). */
export interface MemberFormRow {
  code: string;
  name: string;
  careers_id: string;
  semester: string;
}

/** The form: the team the rows join and the rows. */
export interface MembersFormValues {
  teams_id: number;
  members: MemberFormRow[];
}

/** What a valid form sends. */
export interface MembersFormOutput {
  members: MemberInput[];
}

/** Most rows one list may carry (the server's `membersInputSchema` allows 20). */
export const MAX_MEMBER_ROWS = 20;

/** The choices of the semester select, 1 to 10 (docs/spec.md section 9). */
export const SEMESTER_OPTIONS = SEMESTERS.map((semester) => ({
  value: String(semester),
  label: String(semester),
}));

/** An empty row; the form starts with one. */
export function emptyMemberRow(): MemberFormRow {
  return { code: '', name: '', careers_id: '', semester: '' };
}

/** The form's starting values for a team. */
export function membersFormValues(teamId: number): MembersFormValues {
  return { teams_id: teamId, members: [emptyMemberRow()] };
}

/**
 * The `POST /api/createMember` body before validation: every row with the team's id, in the form's
 * order (the shared schema trims the texts and turns the selects' strings into numbers).
 */
export function membersBody(values: MembersFormValues): Array<MemberFormRow & { teams_id: number }> {
  return values.members.map((row) => ({
    code: row.code,
    name: row.name,
    semester: row.semester,
    teams_id: values.teams_id,
    careers_id: row.careers_id,
  }));
}

/**
 * Validates every row with the shared rules: 'Este campo es requerido' under each missing code, name,
 * career or semester (the semester reuses the career's message, docs/spec.md section 5).
 */
export const membersResolver: Resolver<MembersFormValues, unknown, MembersFormOutput> = (values) => {
  const parsed = membersInputSchema.safeParse(membersBody(values));
  return resolveParse<MembersFormValues, MembersFormOutput>(
    parsed.success ? { success: true, data: { members: parsed.data } } : parsed,
    ['members'],
  );
};

/** The form field of a server field error: the server names them by row (`0.code`). */
export function memberFormField(serverField: string): string {
  return `members.${serverField}`;
}

/** The names of every field of `count` rows (`members.0.code`…), to place server errors. */
export function memberFieldNames(count: number): string[] {
  const fields: Array<keyof MemberFormRow> = ['code', 'name', 'careers_id', 'semester'];
  return Array.from({ length: count }, (_, i) => fields.map((field) => `members.${i}.${field}`)).flat();
}
