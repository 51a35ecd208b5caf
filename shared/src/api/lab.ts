import { okEnvelope } from '../schemas/api.js';
import { z } from 'zod';
import { labMachineRemoveSchema, labMachinesSchema } from '../schemas/lab.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The lab board: which machines run an agent of the active contest, and are they ready. */
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
  /**
   * `POST /api/removeLabMachine` `{id}` (admins): forgets one machine of the lab board (a name a key
   * made up, a machine taken out of the lab). Its alert goes with it: the team's «Agente sin señal»
   * clears when no other machine of the team holds one. 404 `MESSAGES.labMachineNotFound`. A machine
   * that beats again comes back as new.
   */
  removeMachine: defineRoute({
    method: 'POST',
    path: '/api/removeLabMachine',
    access: ADMIN_ACCESS,
    tag: 'laboratorio',
    summary: 'Quita una máquina del laboratorio',
    body: labMachineRemoveSchema,
    reply: z.object({ success: z.literal(true), message: z.string() }),
  }),
} as const;
