import type { SchoolInput, SchoolRow } from '@concurso/shared';
import { catalogRows } from '../catalogs/index.js';
import { School, type ISchool } from './school.entity.js';

/** The only reads and writes of `schools`; a school with departaments stays (the departaments module counts them). */
export const schoolRows = catalogRows<ISchool, SchoolRow, SchoolInput>(School, {
  toRow: (s) => ({ id: s.id, name: s.name }),
});
