import { Migration } from '@mikro-orm/migrations';

/**
 * Presence per machine (docs/design.md section 6a, the lab board): `agent_machines.address` the source
 * address of the machine's last heartbeat or stop notice; `alert` its own alert (`sin_senal`,
 * `detenido`; null while it beats); `changed_at` its last presence change and `logged` the last state
 * its log and the boards were given (`sin_senal`, `detenido`, `en_linea`; null: none), so a flapping
 * machine's changes are coalesced (the sweep writes the last one); an index on `last_seen` for the
 * sweep. `agent_events.hostname` the machine an event is about (null: the whole team's agent).
 */
export class Migration20261201010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `agent_machines` add `address` varchar(45) null, add `alert` varchar(16) null, ' +
        'add `changed_at` datetime(3) null, add `logged` varchar(16) null, ' +
        'add index `agent_machines_last_seen_index` (`last_seen`)',
    );
    this.addSql('alter table `agent_events` add `hostname` varchar(255) null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table `agent_events` drop `hostname`');
    this.addSql(
      'alter table `agent_machines` drop index `agent_machines_last_seen_index`, drop `address`, ' +
        'drop `alert`, drop `changed_at`, drop `logged`',
    );
  }
}
