import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Departament } from '../departaments/index.js';

/** `careers`. */
export const Career = defineEntity({
  name: 'Career',
  tableName: 'careers',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    departament: () => p.manyToOne(Departament).fieldName('departaments_id').deleteRule('restrict'),
  },
});
export type ICareer = InferEntity<typeof Career>;
