import { Migration } from '@mikro-orm/migrations';

/**
 * Live-contest resilience and security:
 * - `users.session_version`: signed into every token; changing a user's password or role bumps it, so
 *   every token issued before stops opening a session, in every server process, at once.
 * - `members.contests_id` with a unique index on (`contests_id`, `code`): a student code appears once
 *   per contest, enforced by the database even when two requests race (the check before the insert
 *   alone let both through). Codes a race already repeated are renamed `<code>-<id>` first, so the
 *   index can be built; the collation compares them ignoring case, as the check does.
 */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `users` add `session_version` int unsigned not null default 0 after `types_users_id`',
    );
    this.addSql('alter table `members` add `contests_id` int unsigned null after `teams_id`');
    this.addSql(
      'update `members` m join `teams` t on t.`id` = m.`teams_id` set m.`contests_id` = t.`contests_id`',
    );
    this.addSql(
      'update `members` m join `members` o on o.`contests_id` = m.`contests_id` and o.`code` = m.`code` and o.`id` < m.`id` ' +
        "set m.`code` = concat(left(m.`code`, 38), '-', m.`id`)",
    );
    this.addSql('alter table `members` modify `contests_id` int unsigned not null');
    this.addSql('alter table `members` add unique `members_contests_id_code_unique` (`contests_id`, `code`)');
    this.addSql(
      'alter table `members` add constraint `members_contests_id_foreign` foreign key (`contests_id`) references `contests` (`id`) on update cascade on delete restrict',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `members` drop foreign key `members_contests_id_foreign`');
    this.addSql('alter table `members` drop index `members_contests_id_code_unique`');
    this.addSql('alter table `members` drop column `contests_id`');
    this.addSql('alter table `users` drop column `session_version`');
  }
}
