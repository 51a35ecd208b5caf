import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { TypeUser } from './type-user.entity.js';

/**
 * `users`: staff and participants. `password` is an argon2id hash, null for participants;
 * it is `hidden` so no serialization ever sends it.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    username: p.string().length(100).unique(),
    password: p.string().length(255).nullable().hidden(),
    type: () => p.manyToOne(TypeUser).fieldName('types_users_id'),
    /** Signed into tokens; bumped when the password or the role changes, which ends older sessions. */
    session_version: p.integer().unsigned().default(0).fieldName('session_version'),
  },
});
export type IUser = InferEntity<typeof User>;
