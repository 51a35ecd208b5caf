import { Migration } from '@mikro-orm/migrations';

/**
 * An import into the wrong contest is undone in one step: `team_imports` records each bulk
 * import (contest, file name, counts, who and when, when undone), and `teams.team_imports_id` names the
 * import that created a team (null for a team registered by hand, or once its import row is gone).
 */
export class Migration20261127000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table `team_imports` (`id` int unsigned not null auto_increment primary key, ' +
        '`contests_id` int unsigned not null, `users_id` int unsigned null, `file_name` varchar(255) not null, ' +
        '`teams` int unsigned not null, `members` int unsigned not null, ' +
        '`created_at` datetime(3) not null, `undone_at` datetime(3) null, ' +
        'index `team_imports_contests_id_index` (`contests_id`), ' +
        'index `team_imports_users_id_index` (`users_id`), ' +
        'constraint `team_imports_contests_id_foreign` foreign key (`contests_id`) ' +
        'references `contests` (`id`) on update cascade on delete cascade, ' +
        'constraint `team_imports_users_id_foreign` foreign key (`users_id`) ' +
        'references `users` (`id`) on update cascade on delete set null' +
        ') default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB',
    );
    this.addSql(
      'alter table `teams` add `team_imports_id` int unsigned null, ' +
        'add index `teams_team_imports_id_index` (`team_imports_id`), ' +
        'add constraint `teams_team_imports_id_foreign` foreign key (`team_imports_id`) ' +
        'references `team_imports` (`id`) on update cascade on delete set null',
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table `teams` drop foreign key `teams_team_imports_id_foreign`, ' +
        'drop index `teams_team_imports_id_index`, drop `team_imports_id`',
    );
    this.addSql('drop table `team_imports`');
  }
}
