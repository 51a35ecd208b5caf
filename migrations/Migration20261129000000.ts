import { Migration } from '@mikro-orm/migrations';

/**
 * The tamper alert (docs/design.md section 6a, the lab board): `teams.agent_alert` holds the boards' alert
 * about an offline agent (`sin_senal`, `detenido`; null otherwise), and `agent_events` the log of what
 * happened to each team's agent during the active contest; `agent_machines` the machines each team's agents
 * run on, for the lab board (host name, system, version, the policy applied, the clock offset, online since,
 * last seen; at most `LAB_MAX_MACHINES_PER_TEAM` per team); `messages` and `message_receipts` the messages
 * judges send to teams and when each team's agent showed it and the contestant closed it.
 */
export class Migration20261129000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `teams` add `agent_alert` varchar(16) null after `agent_online`');
    this.addSql(
      'create table `agent_events` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `teams_id` int unsigned not null, `kind` varchar(16) not null, ' +
        '`at` datetime(3) not null, `last_seen` datetime(3) null, `silence_ms` int unsigned null, ' +
        'index `agent_events_contests_id_at_index` (`contests_id`, `at`), ' +
        'index `agent_events_teams_id_at_index` (`teams_id`, `at`), ' +
        'constraint `agent_events_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `agent_events_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `agent_machines` (`id` int unsigned not null auto_increment primary key, ' +
        '`teams_id` int unsigned not null, `hostname` varchar(255) not null, `os` varchar(100) not null, ' +
        "`version` varchar(50) not null, `policy_version` varchar(64) not null default '', " +
        '`clock_offset_ms` int null, `online_since` datetime(3) not null, `last_seen` datetime(3) not null, ' +
        'unique `agent_machines_team_host_unique` (`teams_id`, `hostname`), ' +
        'constraint `agent_machines_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `messages` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `users_id` int unsigned null, `target` varchar(16) not null, ' +
        '`target_label` varchar(300) not null, `text` varchar(500) not null, ' +
        '`created_at` datetime(3) not null, `expires_at` datetime(3) not null, ' +
        'index `messages_contests_id_created_at_index` (`contests_id`, `created_at`), ' +
        'constraint `messages_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `messages_users_id_foreign` foreign key (`users_id`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'create table `message_receipts` (`id` int unsigned not null auto_increment primary key, ' +
        '`messages_id` int unsigned not null, `teams_id` int unsigned not null, ' +
        '`delivered_at` datetime(3) null, `seen_at` datetime(3) null, ' +
        'unique `message_receipts_message_team_unique` (`messages_id`, `teams_id`), ' +
        'index `message_receipts_teams_id_index` (`teams_id`), ' +
        'constraint `message_receipts_messages_id_foreign` foreign key (`messages_id`) ' +
        'references `messages` (`id`) on update cascade on delete cascade, ' +
        'constraint `message_receipts_teams_id_foreign` foreign key (`teams_id`) ' +
        'references `teams` (`id`) on update cascade on delete cascade' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table `message_receipts`');
    this.addSql('drop table `messages`');
    this.addSql('drop table `agent_machines`');
    this.addSql('drop table `agent_events`');
    this.addSql('alter table `teams` drop `agent_alert`');
  }
}
