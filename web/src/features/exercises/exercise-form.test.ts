import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import {
  PDF_ONLY_MESSAGE,
  emptyExerciseValues,
  exerciseFileError,
  exerciseFormResolver,
  exerciseValuesOf,
  type ExerciseFormValues,
} from './exercise-form';

const options = {} as ResolverOptions<ExerciseFormValues>;
const resolve = async (values: ExerciseFormValues) => exerciseFormResolver(values, undefined, options);
const pdf = new File(['%PDF-1.4'], 'Problema A.PDF', { type: 'application/pdf' });

describe('exercise form (docs/spec.md section 5: path and level; docs/design.md section 3: contest)', () => {
  it('requires the file on create only, and a PDF when one is chosen', () => {
    expect(exerciseFileError(null, true)).toBe('Este campo es requerido');
    expect(exerciseFileError(null, false)).toBeNull();
    expect(exerciseFileError(pdf, true)).toBeNull();
    expect(exerciseFileError({ name: 'notas.docx' }, false)).toBe(PDF_ONLY_MESSAGE);
  });

  it('requires the PDF and the level of a new exercise', async () => {
    const result = await resolve(emptyExerciseValues());
    expect(result.errors).toMatchObject({
      file: { message: 'Este campo es requerido' },
      levels_id: { message: 'Este campo es requerido' },
    });
  });

  it('sends the file, the numeric level and the chosen contest on create', async () => {
    const result = await resolve({ id: null, levels_id: '2', contests_id: '4', file: pdf });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ levels_id: 2, contests_id: 4, file: pdf });
  });

  it('sends no contest when none is chosen (the server uses the active one)', async () => {
    const result = await resolve({ ...emptyExerciseValues(), levels_id: '2', file: pdf });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ levels_id: 2, file: pdf });
  });

  it('refuses a contest value that is not an id', async () => {
    const result = await resolve({ id: null, levels_id: '2', contests_id: 'x', file: pdf });
    expect(result.errors).toHaveProperty('contests_id');
  });

  it('keeps the current PDF on an update without a file, in the contest of the row', async () => {
    const values = exerciseValuesOf({ id: 5, levels_id: 3, contests_id: 7 });
    expect(values).toEqual({ id: 5, levels_id: '3', contests_id: '7', file: null });
    const result = await resolve(values);
    expect(result.values).toEqual({ id: 5, levels_id: 3, contests_id: 7, file: null });
  });
});
