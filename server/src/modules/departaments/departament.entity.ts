import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { School } from '../schools/index.js';

/** `departaments` (the spec's spelling): type 0 internal, 1 external. */
export const Departament = defineEntity({
  name: 'Departament',
  tableName: 'departaments',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    type: p.tinyint().default(0),
    school: () => p.manyToOne(School).fieldName('schools_id').deleteRule('restrict'),
  },
});
export type IDepartament = InferEntity<typeof Departament>;
