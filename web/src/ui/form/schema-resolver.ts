/**
 * react-hook-form results from a shared zod schema's `safeParse`, for forms whose fields are not the
 * request body one to one (the users' '¿Cambiar contraseña?', the members' rows, the exercise's file).
 * Pure: the resolvers call it with the body they built from the fields.
 */
import type { FieldError, FieldErrors, FieldValues, ResolverResult } from 'react-hook-form';

/** One problem of a parse: where (`['members', 0, 'code']`) and the Spanish message. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What `schema.safeParse` answers (zod's shape, without depending on zod here). */
export type SchemaParse<T> =
  { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };

/**
 * The nested errors react-hook-form expects (`{ members: [ { code: { message } } ] }`), keeping the
 * first message of each field. Numeric steps become array indexes. An issue without a path goes to
 * `root`.
 */
export function issuesToFieldErrors<TValues extends FieldValues>(
  issues: readonly SchemaIssue[],
  prefix: readonly PropertyKey[] = [],
): FieldErrors<TValues> {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) {
    const path = [...prefix, ...issue.path].map((step) => (typeof step === 'symbol' ? String(step) : step));
    if (path.length === 0) path.push('root');
    let node: Record<string | number, unknown> = errors;
    for (let i = 0; i < path.length - 1; i += 1) {
      const step = path[i] as string | number;
      const nextIsIndex = typeof path[i + 1] === 'number';
      node[step] ??= nextIsIndex ? [] : {};
      node = node[step] as Record<string | number, unknown>;
    }
    const leaf = path[path.length - 1] as string | number;
    const error: FieldError = { type: 'validate', message: issue.message };
    node[leaf] ??= error;
  }
  return errors as FieldErrors<TValues>;
}

/** A resolver result from a parse: the parsed body, or the errors under `prefix`. */
export function resolveParse<TValues extends FieldValues, TOutput>(
  parsed: SchemaParse<TOutput>,
  prefix: readonly PropertyKey[] = [],
): ResolverResult<TValues, TOutput> {
  if (parsed.success) return { values: parsed.data, errors: {} };
  return { values: {}, errors: issuesToFieldErrors<TValues>(parsed.error.issues, prefix) };
}
