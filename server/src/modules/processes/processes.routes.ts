import type { FastifyInstance } from 'fastify';
import { processesCatalogApi, processesRoutes } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { catalogRoutes } from '../catalogs/catalog-routes.js';
import { describeUses } from '../catalogs/in-use-message.js';
import { addCommonProcesses, processRows } from './processes.repository.js';

/**
 * Processes, the forbidden executables (SPEC.md sections 2, 3, 7): `getProcesses`, `createProcess {name}`,
 * `updateProcess`, `deleteProcess/{id}`; names unique ignoring case (409).
 */
const crud = catalogRoutes({
  catalog: 'processes',
  api: processesCatalogApi,
  ...processRows,
  async inUse(em, id) {
    const contests = describeUses(await processRows.uses(em, id));
    return contests
      ? `No se puede eliminar el proceso: está bloqueado en ${contests}. Quítelo primero con 'Asignar procesos'.`
      : null;
  },
});

/** The four catalogue calls plus `processesRoutes` of the shared route map (`addCommonProcesses`). */
export default async function processesModule(app: FastifyInstance): Promise<void> {
  await app.register(crud);

  addRoute(app, processesRoutes.addCommon, async () => {
    const data = await addCommonProcesses(app.orm.em);
    if (data.added > 0) app.board.catalogChanged('processes');
    return {
      success: true as const,
      data,
      message: `Se agregaron ${data.added} procesos (${data.skipped} ya existían).`,
    };
  });
}
