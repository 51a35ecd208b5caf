import { Migration } from '@mikro-orm/migrations';

/** Reserved slot (filled by the change that needs it). */
export class Migration20261201000000 extends Migration {
  override async up(): Promise<void> {}

  override async down(): Promise<void> {}
}
