import { defineEntity, p } from '@mikro-orm/core';

/**
 * `revoked_tokens`: JWT ids ended by logout, kept until the token would have expired so
 * "logout revokes the token for good" holds across restarts and processes (docs/design.md section 4).
 */
export const RevokedToken = defineEntity({
  name: 'RevokedToken',
  tableName: 'revoked_tokens',
  properties: {
    jti: p.string().length(64).primary(),
    expiresAt: p.datetime().index(),
  },
});
