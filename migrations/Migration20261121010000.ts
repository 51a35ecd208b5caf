import { Migration } from '@mikro-orm/migrations';

/**
 * `teams.agent_online`: whether the boards were last told the team's agent is online. Kept as a column
 * (not only derived from `agent_last_seen`) so exactly one server process announces each change, under
 * a row lock, when a heartbeat arrives or the agent falls silent (docs/design.md section 6).
 * `agent_last_seen` gets milliseconds, so a short offline delay is measured exactly.
 * `attempts.killed`: false when the agent could not end the process it reported.
 */
export class Migration20261121010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `teams` modify `agent_last_seen` datetime(3) null');
    this.addSql('alter table `attempts` add `killed` tinyint(1) not null default 1 after `process`');
    this.addSql(
      'alter table `teams` add `agent_online` tinyint(1) not null default 0 after `agent_last_seen`',
    );
    this.addSql(
      'alter table `teams` add index `teams_agent_online_agent_last_seen_index` (`agent_online`, `agent_last_seen`)',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `teams` drop index `teams_agent_online_agent_last_seen_index`');
    this.addSql('alter table `teams` drop column `agent_online`');
    this.addSql('alter table `teams` modify `agent_last_seen` datetime null');
    this.addSql('alter table `attempts` drop column `killed`');
  }
}
