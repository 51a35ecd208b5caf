import { Migration } from '@mikro-orm/migrations';

/**
 * Fingerprints are claims (docs/design.md section 6a): a fingerprint an agent reports no longer
 * names a process for every contest and every machine at once.
 * - `process_fingerprints` becomes one row per contest, blocked process and SHA-256 (the same hash may
 *   be claimed for two processes: the first claim no longer owns it), `confirmed` by an admin (who and
 *   when), `updated_at` its last new claim.
 * - `process_fingerprint_claims`: which teams claimed it and when; quorum counts them, the per-team
 *   rate reads them by `(teams_id, created_at)`.
 * The fingerprints learned before claims existed were taught by any key: they are kept, unconfirmed
 * and with no claimant (so they apply to no machine until an admin confirms them), for the active
 * contest when it blocks their process; the others are dropped.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('rename table `process_fingerprints` to `process_fingerprints_old`');
    // Foreign key names are the schema's, not the table's: the new table takes the old one's.
    this.addSql(
      'alter table `process_fingerprints_old` drop foreign key `process_fingerprints_processes_id_foreign`',
    );
    this.addSql(
      'create table `process_fingerprints` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `processes_id` int unsigned not null, `sha256` char(64) not null, ' +
        '`confirmed` tinyint(1) not null default 0, `confirmed_by` int unsigned null, `confirmed_at` datetime null, ' +
        '`created_at` datetime not null, `updated_at` datetime not null, ' +
        'unique `process_fingerprints_unique` (`contests_id`, `processes_id`, `sha256`), ' +
        'index `process_fingerprints_processes_id_index` (`processes_id`), ' +
        'constraint `process_fingerprints_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `process_fingerprints_processes_id_foreign` foreign key (`processes_id`) ' +
        'references `processes` (`id`) on update cascade on delete cascade, ' +
        'constraint `process_fingerprints_confirmed_by_foreign` foreign key (`confirmed_by`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `process_fingerprint_claims` (`id` int unsigned not null auto_increment primary key, ' +
        '`process_fingerprints_id` int unsigned not null, `teams_id` int unsigned not null, `created_at` datetime not null, ' +
        'unique `process_fingerprint_claims_unique` (`process_fingerprints_id`, `teams_id`), ' +
        'index `process_fingerprint_claims_teams_id_created_at_index` (`teams_id`, `created_at`), ' +
        'constraint `process_fingerprint_claims_process_fingerprints_id_foreign` foreign key (`process_fingerprints_id`) ' +
        'references `process_fingerprints` (`id`) on update cascade on delete cascade, ' +
        'constraint `process_fingerprint_claims_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'insert into `process_fingerprints` (`contests_id`, `processes_id`, `sha256`, `created_at`, `updated_at`) ' +
        'select c.id, f.processes_id, f.sha256, f.created_at, f.created_at from `process_fingerprints_old` f ' +
        'join `contest_processes` cp on cp.processes_id = f.processes_id ' +
        'join `contests` c on c.id = cp.contests_id and c.active_key = 1',
    );
    this.addSql('drop table `process_fingerprints_old`');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `process_fingerprint_claims`');
    this.addSql('drop table if exists `process_fingerprints_new`');
    this.addSql('rename table `process_fingerprints` to `process_fingerprints_new`');
    this.addSql(
      'alter table `process_fingerprints_new` drop foreign key `process_fingerprints_processes_id_foreign`',
    );
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
      'insert ignore into `process_fingerprints` (`processes_id`, `sha256`, `created_at`) ' +
        'select processes_id, sha256, created_at from `process_fingerprints_new` where confirmed = 1',
    );
    this.addSql('drop table `process_fingerprints_new`');
  }
}
