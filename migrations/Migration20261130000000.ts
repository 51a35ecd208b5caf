import { Migration } from '@mikro-orm/migrations';

/**
 * The network policy (docs/design.md section 6a): `contests.allowed_sites` the destinations its lab
 * machines may reach while it is active (a JSON array of `destinationText`s; empty: no policy) and
 * `network_version` (+1 at every change of the list); `contest_network_changes` each change, for the
 * contest's log; `agent_machines.network_version` / `network_error` what each machine said is in force.
 */
export class Migration20261130000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "alter table `contests` add `allowed_sites` json not null default '[]', " +
        'add `network_version` int unsigned not null default 0',
    );
    this.addSql(
      'alter table `agent_machines` add `network_version` int unsigned null, ' +
        'add `network_error` varchar(300) null',
    );
    this.addSql(
      'create table `contest_network_changes` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `users_id` int unsigned null, `version` int unsigned not null, ' +
        '`allowed_sites` json not null, `at` datetime(3) not null, ' +
        'index `contest_network_changes_contests_id_at_index` (`contests_id`, `at`), ' +
        'constraint `contest_network_changes_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `contest_network_changes_users_id_foreign` foreign key (`users_id`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table `contest_network_changes`');
    this.addSql('alter table `agent_machines` drop `network_version`, drop `network_error`');
    this.addSql('alter table `contests` drop `allowed_sites`, drop `network_version`');
  }
}
