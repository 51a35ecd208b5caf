import { okEnvelope } from '../schemas/api.js';
import { labMachinesSchema } from '../schemas/lab.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The lab board (issue 24): which machines run an agent of the active contest, and are they ready. */
export const labRoutes = {
  /**
   * `GET /api/labMachines` (admins and judges): the active contest's machines (`labMachinesSchema`),
   * with readiness; `{contest: null, ready: 0, teams: 0, missing: [], machines: []}` when none is active.
   */
  machines: defineRoute({
    method: 'GET',
    path: '/api/labMachines',
    access: STAFF_ACCESS,
    tag: 'laboratorio',
    summary: 'Máquinas del laboratorio y equipos listos',
    reply: okEnvelope(labMachinesSchema),
  }),
} as const;
