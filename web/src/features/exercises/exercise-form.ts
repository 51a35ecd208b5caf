/**
 * The exercise modal's rules (docs/spec.md sections 2 and 5): a PDF (required on create; on update an empty
 * choice keeps the current one), the level and the contest (the active one by default). Pure:
 * the exercises scene binds them to its form.
 */
import { MESSAGES, exerciseFieldsSchema, type ExerciseRow } from '@concurso/shared';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { ExerciseUpload } from '../../api/exercise-api';
import { issuesToFieldErrors } from '../../ui/form/schema-resolver';

/**
 * The modal's fields: `id` is null when creating; `contests_id` is '' until a contest is chosen (the
 * screen starts a new exercise in the active contest; '' is sent as nothing: the server picks it).
 */
export interface ExerciseFormValues {
  id: number | null;
  levels_id: string;
  contests_id: string;
  file: File | null;
}

/** The server's 415 text, also said before uploading. */
export const PDF_ONLY_MESSAGE = 'El archivo debe ser un PDF (.pdf).';

/** A new exercise's fields (the screen fills `contests_id` with the active contest). */
export function emptyExerciseValues(): ExerciseFormValues {
  return { id: null, levels_id: '', contests_id: '', file: null };
}

/**
 * An edited exercise's fields: its level and contest, no file chosen (the current PDF stays unless
 * another is chosen).
 */
export function exerciseValuesOf(
  row: Pick<ExerciseRow, 'id' | 'levels_id' | 'contests_id'>,
): ExerciseFormValues {
  return { id: row.id, levels_id: String(row.levels_id), contests_id: String(row.contests_id), file: null };
}

/** True for a file the server takes as a PDF by its name (it also checks the content). */
function isPdfName(name: string): boolean {
  return /\.pdf$/i.test(name);
}

/** The file's error: required when creating, a PDF when given; null when fine. */
export function exerciseFileError(file: Pick<File, 'name'> | null, creating: boolean): string | null {
  if (!file) return creating ? MESSAGES.required : null;
  return isPdfName(file.name) ? null : PDF_ONLY_MESSAGE;
}

/**
 * The modal's resolver: the level and the contest by the shared rule (no contest chosen: none sent),
 * the file by {@link exerciseFileError}.
 */
export const exerciseFormResolver: Resolver<ExerciseFormValues, unknown, ExerciseUpload> = (values) => {
  const parsed = exerciseFieldsSchema.safeParse({
    levels_id: values.levels_id,
    contests_id: values.contests_id === '' ? undefined : values.contests_id,
  });
  const fileError = exerciseFileError(values.file, values.id === null);
  if (parsed.success && fileError === null) {
    const { contests_id } = parsed.data;
    return {
      values: {
        ...(values.id === null ? {} : { id: values.id }),
        levels_id: parsed.data.levels_id,
        ...(contests_id === undefined ? {} : { contests_id }),
        file: values.file,
      },
      errors: {},
    };
  }
  const errors: FieldErrors<ExerciseFormValues> = parsed.success
    ? {}
    : issuesToFieldErrors<ExerciseFormValues>(parsed.error.issues);
  if (fileError !== null) errors.file = { type: 'validate', message: fileError };
  return { values: {}, errors };
};
