import { USER_TYPES } from '../constants.js';

/**
 * Who may call a route (docs/design.md section 5): `'public'`, `'agent'` (a team's agent key) or the user
 * types allowed. Every route of the map declares one; the server's guard refuses a route without it.
 */
export type Access = 'public' | 'agent' | ReadonlyArray<(typeof USER_TYPES)[keyof typeof USER_TYPES]>;

/** Admins and judges: reads of the boards, catalogues and logs, blocks and unblocks (docs/design.md section 5). */
export const STAFF_ACCESS = [USER_TYPES.admin, USER_TYPES.judge] as const;
/** Admins only: every catalogue write (docs/design.md section 5). */
export const ADMIN_ACCESS = [USER_TYPES.admin] as const;
