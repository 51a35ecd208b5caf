import { Migration } from '@mikro-orm/migrations';

/**
 * What ran an observed program (agent/src/README.md, "Loaders and interpreters"): a script run by
 * python3 or a file run by the dynamic loader is observed under its own file name with what ran it
 * (`python3`; at most 64 characters, the agent schema's limit), so /procesosObservados says
 * «chatgpt.py (vía python3)»; null for a program that ran on its own and from older agents.
 */
export class Migration20261203053800 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `observed_processes` add `via` varchar(64) null after `build_id`');
  }

  override async down(): Promise<void> {
    this.addSql('alter table `observed_processes` drop `via`');
  }
}
