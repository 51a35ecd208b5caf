import { z } from 'zod';

/** Envelope of every successful answer (docs/design.md section 4). */
export const okEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });

/** Envelope of every error answer (docs/design.md section 4): `errors` maps a field to its messages. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiError = z.infer<typeof errorEnvelopeSchema>;

export interface ApiOk<T> {
  success: true;
  data: T;
  message: string;
}
