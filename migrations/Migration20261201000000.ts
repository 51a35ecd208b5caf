import { Migration } from '@mikro-orm/migrations';

/**
 * Colluding keys cannot amplify fingerprints or bring them back (docs/design.md section 6a "Fingerprints"):
 * - `process_fingerprint_denials`: a SHA-256 an admin removed, denied in its contest under every
 *   process name until an admin confirms it again (one row per contest and hash); `processes_id` is
 *   the process it was removed from (null once that process is deleted), `denied_by` the admin.
 * - `contest_permitted_processes`: «Programas permitidos», the catalogue processes a contest allows
 *   (the IDE, compilers, the browser); a claimed fingerprint that matches one's known file is ignored.
 */
export class Migration20261201000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `process_fingerprint_denials` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `sha256` char(64) not null, `processes_id` int unsigned null, ' +
        '`denied_by` int unsigned null, `created_at` datetime not null, ' +
        'unique `process_fingerprint_denials_unique` (`contests_id`, `sha256`), ' +
        'index `process_fingerprint_denials_processes_id_index` (`processes_id`), ' +
        'index `process_fingerprint_denials_denied_by_index` (`denied_by`), ' +
        'constraint `process_fingerprint_denials_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `process_fingerprint_denials_processes_id_foreign` foreign key (`processes_id`) ' +
        'references `processes` (`id`) on update cascade on delete set null, ' +
        'constraint `process_fingerprint_denials_denied_by_foreign` foreign key (`denied_by`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `contest_permitted_processes` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `processes_id` int unsigned not null, ' +
        '`created_at` datetime not null default current_timestamp, ' +
        '`updated_at` datetime not null default current_timestamp, ' +
        'unique `contest_permitted_processes_contests_id_processes_id_unique` (`contests_id`, `processes_id`), ' +
        'index `contest_permitted_processes_processes_id_index` (`processes_id`), ' +
        'constraint `contest_permitted_processes_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `contest_permitted_processes_processes_id_foreign` foreign key (`processes_id`) ' +
        'references `processes` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `contest_permitted_processes`');
    this.addSql('drop table if exists `process_fingerprint_denials`');
  }
}
