import { Migration } from '@mikro-orm/migrations';

/**
 * The first schema: every table of docs/design.md section 3 plus `revoked_tokens`, and the seeded rows
 * (user types, levels, team statuses) with fixed ids, because the spec's ids are a contract
 * (types_users_id 1..3, levels 1..3, status_team 1 and 2).
 */
export class Migration20261121000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table \`coaches\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null, \`educationalLevel\` varchar(50) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `create table \`contests\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`calendar\` varchar(10) not null, \`date\` date not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`contests\` add index \`contests_date_index\`(\`date\`)`);
    this.addSql(
      `create table \`levels\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`level\` varchar(100) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `create table \`exercises\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`path\` varchar(255) not null, \`original_name\` varchar(255) not null, \`levels_id\` int unsigned not null, \`contests_id\` int unsigned not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`exercises\` add index \`exercises_levels_id_index\`(\`levels_id\`)`);
    this.addSql(`alter table \`exercises\` add index \`exercises_contests_id_index\`(\`contests_id\`)`);
    this.addSql(
      `create table \`processes\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`processes\` add unique \`processes_name_unique\`(\`name\`)`);
    this.addSql(
      `create table \`contest_processes\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`contests_id\` int unsigned not null, \`processes_id\` int unsigned not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `alter table \`contest_processes\` add index \`contest_processes_contests_id_index\`(\`contests_id\`)`,
    );
    this.addSql(
      `alter table \`contest_processes\` add index \`contest_processes_processes_id_index\`(\`processes_id\`)`,
    );
    this.addSql(
      `alter table \`contest_processes\` add unique \`contest_processes_contests_id_processes_id_unique\`(\`contests_id\`, \`processes_id\`)`,
    );
    this.addSql(
      `create table \`revoked_tokens\` (\`jti\` varchar(64) not null, \`expires_at\` datetime not null, primary key (\`jti\`)) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `alter table \`revoked_tokens\` add index \`revoked_tokens_expires_at_index\`(\`expires_at\`)`,
    );
    this.addSql(
      `create table \`schools\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `create table \`departaments\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null, \`type\` tinyint not null default 0, \`schools_id\` int unsigned not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`departaments\` add index \`departaments_schools_id_index\`(\`schools_id\`)`);
    this.addSql(
      `create table \`careers\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null, \`departaments_id\` int unsigned not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`careers\` add index \`careers_departaments_id_index\`(\`departaments_id\`)`);
    this.addSql(
      `create table \`status_team\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`status\` varchar(50) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `create table \`teams\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null, \`levels_id\` int unsigned not null, \`coaches_id\` int unsigned not null, \`contests_id\` int unsigned not null, \`status_team_id\` int unsigned not null default 1, \`number_attempts\` int unsigned not null default 0, \`version\` int unsigned not null default 1, \`agent_key_hash\` varchar(64) null, \`agent_last_seen\` datetime null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`teams\` add index \`teams_levels_id_index\`(\`levels_id\`)`);
    this.addSql(`alter table \`teams\` add index \`teams_coaches_id_index\`(\`coaches_id\`)`);
    this.addSql(`alter table \`teams\` add index \`teams_contests_id_index\`(\`contests_id\`)`);
    this.addSql(`alter table \`teams\` add index \`teams_status_team_id_index\`(\`status_team_id\`)`);
    this.addSql(`alter table \`teams\` add unique \`teams_agent_key_hash_unique\`(\`agent_key_hash\`)`);
    this.addSql(
      `alter table \`teams\` add unique \`teams_contests_id_name_unique\`(\`contests_id\`, \`name\`)`,
    );
    this.addSql(
      `create table \`members\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`code\` varchar(50) not null, \`name\` varchar(255) not null, \`semester\` tinyint unsigned not null, \`teams_id\` int unsigned not null, \`careers_id\` int unsigned null, \`type_participant\` varchar(50) null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`members\` add index \`members_teams_id_index\`(\`teams_id\`)`);
    this.addSql(`alter table \`members\` add index \`members_careers_id_index\`(\`careers_id\`)`);
    this.addSql(
      `create table \`attempts\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`teams_id\` int unsigned not null, \`contests_id\` int unsigned not null, \`process\` varchar(255) not null, \`occurred_at\` datetime not null, \`received_at\` datetime not null, \`event_id\` varchar(64) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`attempts\` add index \`attempts_teams_id_index\`(\`teams_id\`)`);
    this.addSql(`alter table \`attempts\` add index \`attempts_contests_id_index\`(\`contests_id\`)`);
    this.addSql(
      `alter table \`attempts\` add unique \`attempts_teams_id_event_id_unique\`(\`teams_id\`, \`event_id\`)`,
    );
    this.addSql(
      `create table \`types_users\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(50) not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `create table \`users\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`name\` varchar(255) not null, \`username\` varchar(100) not null, \`password\` varchar(255) null, \`types_users_id\` int unsigned not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(`alter table \`users\` add unique \`users_username_unique\`(\`username\`)`);
    this.addSql(`alter table \`users\` add index \`users_types_users_id_index\`(\`types_users_id\`)`);
    this.addSql(
      `create table \`team_status_changes\` (\`id\` int unsigned not null auto_increment primary key, \`created_at\` datetime not null default CURRENT_TIMESTAMP, \`updated_at\` datetime not null default CURRENT_TIMESTAMP, \`teams_id\` int unsigned not null, \`from\` tinyint unsigned not null, \`to\` tinyint unsigned not null, \`users_id\` int unsigned null, \`at\` datetime not null) default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`,
    );
    this.addSql(
      `alter table \`team_status_changes\` add index \`team_status_changes_teams_id_index\`(\`teams_id\`)`,
    );
    this.addSql(
      `alter table \`team_status_changes\` add index \`team_status_changes_users_id_index\`(\`users_id\`)`,
    );
    this.addSql(
      `alter table \`exercises\` add constraint \`exercises_levels_id_foreign\` foreign key (\`levels_id\`) references \`levels\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`exercises\` add constraint \`exercises_contests_id_foreign\` foreign key (\`contests_id\`) references \`contests\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`contest_processes\` add constraint \`contest_processes_contests_id_foreign\` foreign key (\`contests_id\`) references \`contests\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`contest_processes\` add constraint \`contest_processes_processes_id_foreign\` foreign key (\`processes_id\`) references \`processes\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`departaments\` add constraint \`departaments_schools_id_foreign\` foreign key (\`schools_id\`) references \`schools\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`careers\` add constraint \`careers_departaments_id_foreign\` foreign key (\`departaments_id\`) references \`departaments\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`teams\` add constraint \`teams_levels_id_foreign\` foreign key (\`levels_id\`) references \`levels\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`teams\` add constraint \`teams_coaches_id_foreign\` foreign key (\`coaches_id\`) references \`coaches\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`teams\` add constraint \`teams_contests_id_foreign\` foreign key (\`contests_id\`) references \`contests\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`teams\` add constraint \`teams_status_team_id_foreign\` foreign key (\`status_team_id\`) references \`status_team\` (\`id\`) on update cascade`,
    );
    this.addSql(
      `alter table \`members\` add constraint \`members_teams_id_foreign\` foreign key (\`teams_id\`) references \`teams\` (\`id\`) on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table \`members\` add constraint \`members_careers_id_foreign\` foreign key (\`careers_id\`) references \`careers\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`attempts\` add constraint \`attempts_teams_id_foreign\` foreign key (\`teams_id\`) references \`teams\` (\`id\`) on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table \`attempts\` add constraint \`attempts_contests_id_foreign\` foreign key (\`contests_id\`) references \`contests\` (\`id\`) on update cascade on delete restrict`,
    );
    this.addSql(
      `alter table \`users\` add constraint \`users_types_users_id_foreign\` foreign key (\`types_users_id\`) references \`types_users\` (\`id\`) on update cascade`,
    );
    this.addSql(
      `alter table \`team_status_changes\` add constraint \`team_status_changes_teams_id_foreign\` foreign key (\`teams_id\`) references \`teams\` (\`id\`) on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table \`team_status_changes\` add constraint \`team_status_changes_users_id_foreign\` foreign key (\`users_id\`) references \`users\` (\`id\`) on update cascade on delete set null`,
    );

    this.addSql(
      `insert into \`types_users\` (\`id\`, \`name\`) values (1, 'Administrador'), (2, 'Juez'), (3, 'Participante')`,
    );
    this.addSql(
      `insert into \`levels\` (\`id\`, \`level\`) values (1, 'Básico'), (2, 'Intermedio'), (3, 'Avanzado')`,
    );
    this.addSql(
      `insert into \`status_team\` (\`id\`, \`status\`) values (1, 'Activo'), (2, 'Descalificado')`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('set foreign_key_checks = 0');
    this.addSql(`drop table if exists \`team_status_changes\``);
    this.addSql(`drop table if exists \`users\``);
    this.addSql(`drop table if exists \`types_users\``);
    this.addSql(`drop table if exists \`attempts\``);
    this.addSql(`drop table if exists \`members\``);
    this.addSql(`drop table if exists \`teams\``);
    this.addSql(`drop table if exists \`status_team\``);
    this.addSql(`drop table if exists \`careers\``);
    this.addSql(`drop table if exists \`departaments\``);
    this.addSql(`drop table if exists \`schools\``);
    this.addSql(`drop table if exists \`revoked_tokens\``);
    this.addSql(`drop table if exists \`contest_processes\``);
    this.addSql(`drop table if exists \`processes\``);
    this.addSql(`drop table if exists \`exercises\``);
    this.addSql(`drop table if exists \`levels\``);
    this.addSql(`drop table if exists \`contests\``);
    this.addSql(`drop table if exists \`coaches\``);
    this.addSql('set foreign_key_checks = 1');
  }
}
