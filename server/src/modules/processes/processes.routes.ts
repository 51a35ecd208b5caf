import type { FastifyInstance } from 'fastify';
import { processesCatalogApi, processesRoutes } from '@concurso/shared';
import { addRoute } from '../../lib/route.js';
import { catalogRoutes, describeUses, type CatalogRoutesOptions } from '../catalogs/index.js';
import { addCommonProcesses, processRows } from './processes.repository.js';

/**
 * Processes, the forbidden executables (docs/spec.md sections 2, 3, 7): `getProcesses`, `createProcess {name}`,
 * `updateProcess`, `deleteProcess/{id}`; names unique ignoring case (409).
 */
const crud = catalogRoutes({
  catalog: 'processes',
  api: processesCatalogApi,
  ...processRows,
  async inUse(_em, _id, uses) {
    const contests = describeUses(await uses());
    return contests
      ? `No se puede eliminar el proceso: está bloqueado en ${contests}. Quítelo primero con 'Asignar procesos'.`
      : null;
  },
});

/**
 * The four catalogue calls plus `processesRoutes.addCommon` of the shared route map
 * (`addCommonProcesses`); the fingerprints' calls of that map are the fingerprints module's.
 */
export default async function processesModule(
  app: FastifyInstance,
  options: CatalogRoutesOptions,
): Promise<void> {
  await app.register(crud, { uses: options.uses });

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
