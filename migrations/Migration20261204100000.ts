import { Migration } from '@mikro-orm/migrations';

/**
 * Screen captures (server/src/modules/captures/README.md):
 * - `contests.capture_screens` («Capturar la pantalla en cada intento»): the contest's agents upload
 *   a capture before and after ending a blocked program. On by default (existing contests too).
 * - `captures`: one row per stored capture, the image itself a file under `DATA_DIR/captures` named by
 *   its SHA-256. `event_id` (an attempt's, unique per team) or `request_id` (a «Ver pantalla»
 *   request's UUID) says what it belongs to ('' in the other one: a unique index ignores rows with a
 *   null); `hostname` the machine ('' when the agent did not say).
 *   Unique per team, attempt or request, moment and machine, so an upload repeated is stored once.
 *   `image_kept` 0: its image was dropped by the per-team bound (the row stays: it is chained).
 * - `capture_requests`: each «Ver pantalla» (its UUID `request_id`, the team, the machine asked for or '' for all,
 *   the judge or admin and when): the open request a `pedida` capture must match (for
 *   `CAPTURE_REQUEST_TTL_MS`), and the record of who looked at which screen when (/bitacora's
 *   `pantalla` rows).
 */
export class Migration20261204100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `contests` add `capture_screens` tinyint(1) not null default 1 after `observe_processes`',
    );
    this.addSql(
      'create table `captures` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `teams_id` int unsigned not null, ' +
        "`event_id` varchar(64) not null default '', `request_id` char(36) not null default '', " +
        "`hostname` varchar(255) not null default '', `moment` varchar(8) not null, " +
        '`sha256` char(64) not null, `bytes` int unsigned not null, ' +
        '`width` smallint unsigned not null, `height` smallint unsigned not null, ' +
        '`taken_at` datetime(3) not null, `received_at` datetime(3) not null, ' +
        '`image_kept` tinyint(1) not null default 1, ' +
        'unique `captures_unique` (`teams_id`, `event_id`, `request_id`, `moment`, `hostname`), ' +
        'index `captures_team_index` (`contests_id`, `teams_id`, `id`), ' +
        'index `captures_sha256_index` (`sha256`), ' +
        'constraint `captures_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `captures_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `capture_requests` (`id` int unsigned not null auto_increment primary key, ' +
        '`request_id` char(36) not null, ' +
        '`contests_id` int unsigned not null, `teams_id` int unsigned not null, ' +
        "`hostname` varchar(255) not null default '', `users_id` int unsigned null, " +
        '`requested_at` datetime(3) not null, ' +
        'unique `capture_requests_request_id_unique` (`request_id`), ' +
        'index `capture_requests_contest_index` (`contests_id`, `requested_at`), ' +
        'constraint `capture_requests_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `capture_requests_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade, ' +
        'constraint `capture_requests_users_id_foreign` foreign key (`users_id`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `capture_requests`');
    this.addSql('drop table if exists `captures`');
    this.addSql('alter table `contests` drop column `capture_screens`');
  }
}
