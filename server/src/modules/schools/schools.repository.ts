import type { SchoolInput, SchoolRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/index.js';
import { Departament } from '../departaments/index.js';
import { School, type ISchool } from './school.entity.js';

/** The only reads and writes of `schools`; a school with departaments stays (counted by entity). */
export const schoolRows = catalogRows<ISchool, SchoolRow, SchoolInput>(School, {
  toRow: (s) => ({ id: s.id, name: s.name }),
  uses: async (em, id) => [[await em.count(Departament, { school: id }), 'departamento', 'departamentos']],
});
