import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { StringListType } from '../../db/string-list-type.js';

/**
 * `contests`: `calendar` is the term derived from `date` (`2026B`), docs/design.md section 3.
 * `activeKey` is 1 on the active contest and null elsewhere; its unique index keeps at most one
 * active. `maxAttempts`: null, or the attempts at which a team is blocked automatically.
 * `observeProcesses`: its agents report what runs on the machines. `allowedSites` and
 * `networkVersion`: its network policy (`setAllowedSites` in the repository is their one writer).
 */
export const Contest = defineEntity({
  name: 'Contest',
  tableName: 'contests',
  properties: {
    ...baseProperties,
    calendar: p.string().length(10),
    date: p.date().index(),
    activeKey: p.tinyint().unsigned().nullable().unique().fieldName('active_key'),
    maxAttempts: p.integer().unsigned().nullable().fieldName('max_attempts'),
    observeProcesses: p.boolean().default(true).fieldName('observe_processes'),
    /** «Capturar la pantalla en cada intento»: its agents upload a capture around each attempt. */
    captureScreens: p.boolean().default(true).fieldName('capture_screens'),
    allowedSites: p
      .type(StringListType)
      .fieldName('allowed_sites')
      .onCreate((): string[] => [])
      .$type<string[], string>(),
    networkVersion: p.integer().unsigned().default(0).fieldName('network_version'),
  },
});
export type IContest = InferEntity<typeof Contest>;
