import { p } from '@mikro-orm/core';
import { tableEntity } from '../../db/base-entity.js';

/** `types_users`: 1 Administrador, 2 Juez, 3 Participante (seeded; docs/design.md section 3). */
export const TypeUser = tableEntity('TypeUser', 'types_users', {
  name: p.string().length(50),
});
