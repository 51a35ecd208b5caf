import { defineEntity, p } from '@mikro-orm/core';

/**
 * `contest_chain`: one link of a contest's chained log (README.md): the chained row's `kind` and id
 * (`refId`), the SHA-256 of its canonical content, the previous link's hash and its own, numbered `seq`
 * 1, 2, … per contest. Written and read only as SQL by chain.repository.ts and chain-verify.ts (the
 * attempts' group commit sends its links with its attempts); declared here so the ORM's picture of the
 * schema is whole (db/entities.test.ts). No relation to `contests`: the table has no foreign key (the
 * migration says why).
 */
export const ContestChainLink = defineEntity({
  name: 'ContestChainLink',
  tableName: 'contest_chain',
  properties: {
    contestsId: p.integer().unsigned().primary().fieldName('contests_id'),
    seq: p.integer().unsigned().primary(),
    kind: p.string().length(16),
    refId: p.integer().unsigned().fieldName('ref_id'),
    contentHash: p.string().length(64).fieldName('content_hash'),
    prevHash: p.string().length(64).fieldName('prev_hash'),
    hash: p.string().length(64),
  },
});

/**
 * `contest_chain_heads`: a contest's last link (`seq`, `hash`), the row every writer of the chain
 * locks so the chain never forks (README.md). SQL only, like `contest_chain`.
 */
export const ContestChainHead = defineEntity({
  name: 'ContestChainHead',
  tableName: 'contest_chain_heads',
  properties: {
    contestsId: p.integer().unsigned().primary().fieldName('contests_id'),
    seq: p.integer().unsigned(),
    hash: p.string().length(64),
  },
});
