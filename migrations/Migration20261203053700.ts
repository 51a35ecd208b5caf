import { Migration } from '@mikro-orm/migrations';

/**
 * What ran a program (agent/src/README.md, "Loaders and interpreters"): an attempt against a program
 * run through the dynamic loader or an interpreter keeps what ran it (`python3`,
 * `ld-linux-x86-64.so.2`; at most 64 characters, the agent schema's limit), so the logs and the
 * board say «chatgpt (vía python3)»; null for a program that ran on its own and from older agents.
 */
export class Migration20261203053700 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `attempts` add `via` varchar(64) null after `executable`');
  }

  override async down(): Promise<void> {
    this.addSql('alter table `attempts` drop `via`');
  }
}
