import { Migration } from '@mikro-orm/migrations';

/**
 * A judges' message a machine could not show (docs/design.md section 6a, messages): on the team's receipt,
 * the last time one of its machines said so (`failed_at`), why (`failure`, the agent's short Spanish
 * phrase) and which machine (`failed_on`, its host name). The sender's dialog and the log show them
 * while the message was not shown.
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `message_receipts` add `failed_at` datetime(3) null, add `failure` varchar(120) null, ' +
        'add `failed_on` varchar(255) null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `message_receipts` drop `failed_at`, drop `failure`, drop `failed_on`');
  }
}
