import { z } from 'zod';
import { requiredText, rowIntSchema } from './common.js';

/** Body of `POST /api/auth/login` (docs/spec.md section 7). */
export const loginSchema = z.object({
  username: requiredText(100),
  password: z
    .string({ error: 'Este campo es requerido' })
    .min(1, { error: 'Este campo es requerido' })
    .max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Answer of `POST /api/auth/login` (docs/design.md section 4). `expires_in` is in seconds. */
export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: rowIntSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Answer of `POST /api/auth/me` (docs/design.md section 4). */
export const meResponseSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  username: z.string(),
  types_users_id: rowIntSchema,
  bool: z.boolean(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
