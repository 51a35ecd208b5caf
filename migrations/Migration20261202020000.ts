import { Migration } from '@mikro-orm/migrations';

/**
 * The allowed host names a machine's network policy left out because they did not resolve
 * (`agent_machines.network_unresolved`, docs/design.md section 6a): at most `NETWORK_UNRESOLVED_MAX` (10)
 * host names of at most 253 characters, separated by one space (a host name has none); null when every
 * name resolved. /laboratorio then says «red: v3 aplicada en parte: no se resolvió …» instead of
 * «aplicada».
 */
export class Migration20261202020000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `agent_machines` add `network_unresolved` varchar(2560) null after `network_error`',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `agent_machines` drop `network_unresolved`');
  }
}
