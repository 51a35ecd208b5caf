import { z } from 'zod';
import { MESSAGES } from '../messages.js';

/**
 * A required trimmed text: empty or missing answers 'Este campo es requerido' (SPEC.md section 5).
 * `max` is the column length (bytes are not counted: utf8mb4 columns count characters).
 */
export const requiredText = (max = 255) =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required })
    .max(max, { error: `Máximo ${max} caracteres` });

/** A positive integer id from a path or a body; strings of digits are accepted (path params). */
export const idSchema = z.coerce
  .number({ error: MESSAGES.required })
  .int({ error: 'Debe ser un número entero' })
  .positive({ error: MESSAGES.required });

/** `{ id }` path parameters of `get .../{id}` routes. */
export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;
