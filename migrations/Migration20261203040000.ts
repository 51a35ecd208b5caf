import { Migration } from '@mikro-orm/migrations';

/**
 * «Programa nuevo» (docs/design.md section 6a: an unknown tool is looked at while it runs; the rule in
 * server/src/modules/observed/README.md):
 * - `observed_processes.hostname` / `path`: the machine (its host name, at most 255 characters) and the
 *   executable's full path (at most `OBSERVED_PATH_MAX`, 1024) of the program's latest reported start;
 *   `''` when the agent did not say (older agents).
 * - indexes `observed_processes_sha256` (`contests_id`, `sha256`, `teams_id`, `first_seen`): who else ran
 *   these bytes, read from the index alone; `observed_processes_first_seen` (`contests_id`,
 *   `first_seen`): the contest's first observed start, where its first minutes begin.
 * - `teams.new_program` / `new_program_at` / `new_program_id`: the team's board mark, the newest
 *   program only it ran (its name, its latest start in UTC, the inventory row's id: a plain number, no
 *   foreign key, since the inventory's rows already hang from `teams`); null when none.
 */
export class Migration20261203040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `observed_processes` ' +
        "add `hostname` varchar(255) not null default '', " +
        "add `path` varchar(1024) not null default '', " +
        'add index `observed_processes_sha256` (`contests_id`, `sha256`, `teams_id`, `first_seen`), ' +
        'add index `observed_processes_first_seen` (`contests_id`, `first_seen`)',
    );
    this.addSql(
      'alter table `teams` ' +
        'add `new_program` varchar(255) null, ' +
        'add `new_program_at` datetime null, ' +
        'add `new_program_id` int unsigned null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `teams` drop `new_program`, drop `new_program_at`, drop `new_program_id`');
    this.addSql(
      'alter table `observed_processes` drop index `observed_processes_first_seen`, ' +
        'drop index `observed_processes_sha256`, drop `path`, drop `hostname`',
    );
  }
}
