import { Migration } from '@mikro-orm/migrations';

/**
 * /bitacora showed events of the same second out of order (a judge's unblock and the attempt
 * right after it, stored to the second, tied). The times of attempts and status changes keep their
 * milliseconds (`datetime(3)`); rows stored before keep `.000`.
 */
export class Migration20261128000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `attempts` modify `occurred_at` datetime(3) not null, modify `received_at` datetime(3) not null',
    );
    this.addSql('alter table `team_status_changes` modify `at` datetime(3) not null');
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table `attempts` modify `occurred_at` datetime not null, modify `received_at` datetime not null',
    );
    this.addSql('alter table `team_status_changes` modify `at` datetime not null');
  }
}
