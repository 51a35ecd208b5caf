import { Migration } from '@mikro-orm/migrations';

/**
 * Renamed programs and what ran in the lab (docs/design.md sections 3 and 6):
 * - `contests.observe_processes`: the contest's agents report every executable started on the
 *   machines. On by default (existing contests too).
 * - `attempts.executable`: the file name a renamed copy ran as, when its fingerprint caught it.
 * - `process_fingerprints`: the SHA-256 learned for each blocked process's executables. One
 *   fingerprint names one process (unique); deleting the process deletes what was learned for it.
 * - `observed_processes`: one row per contest, team (machine), file name and fingerprint ('' when
 *   the agent could not read the file), with the first and last start seen and how many starts.
 */
export class Migration20261124000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `contests` add `observe_processes` tinyint(1) not null default 1 after `max_attempts`',
    );
    this.addSql('alter table `attempts` add `executable` varchar(255) null after `process`');
    this.addSql(
      'create table `process_fingerprints` (`id` int unsigned not null auto_increment primary key, ' +
        '`processes_id` int unsigned not null, `sha256` char(64) not null, `created_at` datetime not null, ' +
        'unique `process_fingerprints_sha256_unique` (`sha256`), ' +
        'index `process_fingerprints_processes_id_index` (`processes_id`), ' +
        'constraint `process_fingerprints_processes_id_foreign` foreign key (`processes_id`) ' +
        'references `processes` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `observed_processes` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `teams_id` int unsigned not null, ' +
        "`name` varchar(255) not null, `sha256` char(64) not null default '', " +
        '`first_seen` datetime not null, `last_seen` datetime not null, `count` int unsigned not null default 0, ' +
        'unique `observed_processes_unique` (`contests_id`, `teams_id`, `name`, `sha256`), ' +
        'index `observed_processes_teams_id_index` (`teams_id`), ' +
        'constraint `observed_processes_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `observed_processes_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `observed_processes`');
    this.addSql('drop table if exists `process_fingerprints`');
    this.addSql('alter table `attempts` drop column `executable`');
    this.addSql('alter table `contests` drop column `observe_processes`');
  }
}
