import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commonProcessesResultSchema, okEnvelope, type ProcessRow } from '@concurso/shared';
import { processesCatalogApi } from '@concurso/shared';
import { Process } from './process.entity.js';
import { catalogRoutes, countWhere, plural } from '../catalogs/catalog-routes.js';
import { ADMIN_ACCESS } from '../../plugins/access.js';
import { addCommonProcesses, assertProcessNameFree } from './processes.service.js';
import { emitCatalogChanged } from '../../realtime/board-events.js';

const toRow = (p: { id: number; name: string }): ProcessRow => ({ id: p.id, name: p.name });

/**
 * Processes, the forbidden executables (SPEC.md sections 2, 3, 7): `getProcesses`, `createProcess {name}`,
 * `updateProcess`, `deleteProcess/{id}`; names unique ignoring case (409).
 */
const crud = catalogRoutes({
  catalog: 'processes',
  api: processesCatalogApi,
  async list(em) {
    return (await em.find(Process, {}, { orderBy: { id: 'asc' } })).map(toRow);
  },
  async create(em, input) {
    await assertProcessNameFree(em, input.name);
    const process = em.create(Process, input);
    await em.flush();
    return toRow(process);
  },
  async update(em, id, input) {
    const process = await em.findOne(Process, id);
    if (!process) return null;
    await assertProcessNameFree(em, input.name, id);
    em.assign(process, input);
    await em.flush();
    return toRow(process);
  },
  async inUse(em, id) {
    const n = await countWhere(em, 'contest_processes', 'processes_id', id);
    return n > 0
      ? `No se puede eliminar el proceso: está bloqueado en ${plural(n, 'concurso', 'concursos')}. Quítelo primero con 'Asignar procesos'.`
      : null;
  },
  async remove(em, id) {
    return (await em.nativeDelete(Process, { id })) > 0;
  },
});

const processesRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);

  /**
   * `POST /api/addCommonProcesses` (admin): adds the ready catalogue of commonly forbidden executables
   * (browsers, chat, remote desktop, screen recorders, AI assistants), skipping those present.
   */
  app.post(
    '/addCommonProcesses',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['procesos'],
        summary: 'Agrega el catálogo común de ejecutables prohibidos',
        response: { 200: okEnvelope(commonProcessesResultSchema) },
      },
    },
    async () => {
      const data = await addCommonProcesses(app.orm.em);
      if (data.added > 0) emitCatalogChanged(app.io, 'processes');
      return {
        success: true as const,
        data,
        message: `Se agregaron ${data.added} procesos (${data.skipped} ya existían).`,
      };
    },
  );
};

export default processesRoutes;
