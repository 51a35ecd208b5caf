import { Migration } from '@mikro-orm/migrations';

/**
 * How a machine's network policy filters an allowed host name (`agent_machines.network_filter`, the
 * heartbeat's `network_filter`): `name` (Linux: by the name itself, TLS SNI and HTTP Host, DNS through
 * the agent's forwarder) or `address` (Windows: only by the addresses it resolved to); null when the
 * agent never said. /laboratorio then says «red: v3 aplicada (filtro por nombre)» or «red: v3 aplicada
 * (solo por dirección: Windows no filtra por nombre)».
 */
export class Migration20261203101500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `agent_machines` add `network_filter` varchar(8) null after `network_unresolved`',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `agent_machines` drop `network_filter`');
  }
}
