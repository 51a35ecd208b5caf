import { Migration } from '@mikro-orm/migrations';

/**
 * The contest's chained log (server/src/modules/chain/README.md): `contest_chain` holds one row per
 * chained row of a contest's history (an attempt, a status change, an agent event, a message, a
 * change of the allowed sites, a screen capture), numbered `seq` 1, 2, … per contest in insertion
 * order, with the SHA-256 of the row's canonical content, the previous row's hash and its own hash;
 * `contest_chain_heads` keeps each contest's last `seq` and hash, the row every writer of the chain
 * locks so a contest's chain never forks. No foreign key to `contests`: a key's check would take a
 * shared lock on the contest row inside the attempts' group commit, which a change of the allowed
 * sites holds exclusively while it waits for the head. No index beyond the key: the verification
 * reads a contest's links in `seq` order, and every other index is one more write per attempt.
 */
export class Migration20261204090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `contest_chain` (`contests_id` int unsigned not null, `seq` int unsigned not null, ' +
        '`kind` varchar(16) not null, `ref_id` int unsigned not null, `content_hash` char(64) not null, ' +
        '`prev_hash` char(64) not null, `hash` char(64) not null, primary key (`contests_id`, `seq`)) ' +
        'default character set ascii collate ascii_bin engine = InnoDB',
    );
    this.addSql(
      'create table `contest_chain_heads` (`contests_id` int unsigned not null primary key, ' +
        '`seq` int unsigned not null, `hash` char(64) not null) ' +
        'default character set ascii collate ascii_bin engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `contest_chain_heads`');
    this.addSql('drop table if exists `contest_chain`');
  }
}
