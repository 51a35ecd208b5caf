import { describe, expect, it } from 'vitest';
import type { FieldErrors, ResolverOptions } from 'react-hook-form';
import {
  emptyMemberRow,
  memberFieldNames,
  memberFormField,
  membersBody,
  membersFormValues,
  membersResolver,
  type MembersFormValues,
} from './member-rows';

const options = {} as ResolverOptions<MembersFormValues>;
const resolve = async (values: MembersFormValues) => membersResolver(values, undefined, options);

describe('members form', () => {
  it('starts with one empty row for the team', () => {
    expect(membersFormValues(4)).toEqual({ teams_id: 4, members: [emptyMemberRow()] });
    expect(emptyMemberRow()).toEqual({ code: '', name: '', careers_id: '', semester: '' });
  });

  it('turns the rows into the createMember list, each with the team', () => {
    expect(
      membersBody({
        teams_id: 9,
        members: [
          { code: '2150', name: 'Ana', careers_id: '3', semester: '5' },
          { code: '2151', name: 'Luis', careers_id: '1', semester: '10' },
        ],
      }),
    ).toEqual([
      { code: '2150', name: 'Ana', semester: '5', teams_id: 9, careers_id: '3' },
      { code: '2151', name: 'Luis', semester: '10', teams_id: 9, careers_id: '1' },
    ]);
  });

  it('sends trimmed texts and numeric ids and semesters when every row is complete', async () => {
    const result = await resolve({
      teams_id: 9,
      members: [
        { code: ' 2150 ', name: ' Ana López ', careers_id: '3', semester: '5' },
        { code: '2151', name: 'Luis', careers_id: '1', semester: '10' },
      ],
    });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      members: [
        { code: '2150', name: 'Ana López', semester: 5, teams_id: 9, careers_id: 3 },
        { code: '2151', name: 'Luis', semester: 10, teams_id: 9, careers_id: 1 },
      ],
    });
  });

  it("puts 'Este campo es requerido' under each missing field of its own row (semester included)", async () => {
    const result = await resolve({
      teams_id: 9,
      members: [
        { code: '2150', name: 'Ana', careers_id: '3', semester: '5' },
        { code: '', name: 'Luis', careers_id: '', semester: '' },
      ],
    });
    const errors = result.errors as FieldErrors<MembersFormValues>;
    expect(errors.members?.[0]).toBeUndefined();
    expect(errors.members?.[1]?.code?.message).toBe('Este campo es requerido');
    expect(errors.members?.[1]?.name).toBeUndefined();
    expect(errors.members?.[1]?.careers_id?.message).toBe('Este campo es requerido');
    // docs/spec.md section 5: the semester's error reuses the career's message.
    expect(errors.members?.[1]?.semester?.message).toBe(errors.members?.[1]?.careers_id?.message);
  });

  it('places the server errors of a row (`1.code`) on the form fields', () => {
    expect(memberFormField('1.code')).toBe('members.1.code');
    expect(memberFieldNames(2)).toEqual([
      'members.0.code',
      'members.0.name',
      'members.0.careers_id',
      'members.0.semester',
      'members.1.code',
      'members.1.name',
      'members.1.careers_id',
      'members.1.semester',
    ]);
  });
});
