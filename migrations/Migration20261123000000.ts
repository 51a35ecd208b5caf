import { Migration } from '@mikro-orm/migrations';

/**
 * The contest's life (docs/design.md section 3):
 * - `contests.active`: the one contest boards, the projector and agents follow, chosen by an admin.
 *   `active_key` is 1 on the active row and NULL elsewhere, and unique, so the database itself keeps
 *   "at most one" even when two activations race. The contest the old rule showed (the latest date,
 *   then the highest id) becomes the active one, so an upgrade changes no board.
 * - `contests.max_attempts`: null, or the attempts at which the server blocks a team by itself.
 * - `team_status_changes.automatic`: the change was that automatic block (its `users_id` is null);
 *   a null user alone also means a judge whose account was deleted since.
 */
export class Migration20261123000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `contests` add `active_key` tinyint unsigned null after `date`');
    this.addSql('alter table `contests` add `max_attempts` int unsigned null after `active_key`');
    this.addSql('alter table `contests` add unique `contests_active_key_unique` (`active_key`)');
    this.addSql('update `contests` set `active_key` = 1 order by `date` desc, `id` desc limit 1');
    this.addSql(
      'alter table `team_status_changes` add `automatic` tinyint(1) not null default 0 after `users_id`',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `team_status_changes` drop column `automatic`');
    this.addSql('alter table `contests` drop index `contests_active_key_unique`');
    this.addSql('alter table `contests` drop column `max_attempts`');
    this.addSql('alter table `contests` drop column `active_key`');
  }
}
