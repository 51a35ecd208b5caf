import { z } from 'zod';
import { idSchema, printableText, rowIntSchema } from './common.js';
import { sha256Schema } from './agent.js';

/**
 * «También coincide con» (agent/README.md, «Copias modificadas»: every identity rule is shown to the
 * admin before it applies): before a program is blocked or a fingerprint confirmed, which other
 * programs of the contest the agents would end with it because their files are alike.
 */

/** Most similar programs `GET /api/similarPrograms` names (the closest first). */
export const SIMILAR_PROGRAMS_MAX = 20;

/**
 * Query of `GET /api/similarPrograms`: the file about to be blocked (`sha256`) under the name it is
 * blocked as (`name`: the observed name, or the blocked process a fingerprint belongs to), in the
 * active contest or `contests_id`.
 */
export const similarProgramsQuerySchema = z.object({
  sha256: sha256Schema,
  name: printableText(255).min(1),
  contests_id: idSchema.optional(),
});
export type SimilarProgramsQuery = z.infer<typeof similarProgramsQuerySchema>;

/**
 * One other program of the contest that the block would also end: its name (as an agent first reported
 * it), its SHA-256, on how many machines it ran, and why: `'sha256'` the very same file under another
 * name, `'build_id'` the same ELF build-id, `'tlsh'` a similarity digest within `SIMILAR_MAX_DISTANCE`
 * (`distance`, TLSH units; 0 for the first two).
 */
export const similarProgramSchema = z.object({
  name: z.string(),
  sha256: z.string(),
  machines: rowIntSchema,
  by: z.enum(['sha256', 'build_id', 'tlsh']),
  distance: rowIntSchema,
});
export type SimilarProgram = z.infer<typeof similarProgramSchema>;

/**
 * `data` of `GET /api/similarPrograms`: the digest and build-id known for the file (null when no agent
 * reported them: then only the same file under other names is found), the threshold used, and at most
 * `SIMILAR_PROGRAMS_MAX` other programs (names other than `name`), closest first, with `total` of them
 * all.
 */
export const similarProgramsSchema = z.object({
  tlsh: z.string().nullable(),
  build_id: z.string().nullable(),
  threshold: rowIntSchema,
  programs: z.array(similarProgramSchema),
  total: rowIntSchema,
});
export type SimilarPrograms = z.infer<typeof similarProgramsSchema>;

/**
 * The sentence the admin reads before the block applies: «chatgpt también coincide con: g++, c++.»,
 * with «y N más» past the names listed; '' when `programs` is empty.
 */
export function alsoMatchesText(name: string, found: Pick<SimilarPrograms, 'programs' | 'total'>): string {
  if (found.programs.length === 0) return '';
  const names = found.programs.map((program) => program.name).join(', ');
  const more = found.total > found.programs.length ? ` y ${found.total - found.programs.length} más` : '';
  return `${name} también coincide con: ${names}${more}.`;
}
