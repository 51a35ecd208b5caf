import { Migration } from '@mikro-orm/migrations';

/**
 * A program is also known by its similarity digest and its ELF build-id (docs/design.md section 6a): the
 * learned fingerprints (`process_fingerprints`) and the programs the agents saw run
 * (`observed_processes`) keep the `tlsh` digest (at most `SIMILARITY_DIGEST_MAX_LENGTH`, 148
 * characters) and the `build_id` (at most 64 hex digits) an agent reported with them; null when the
 * agent sent none (older agents, files too small for a digest, no build-id note). The config sends them
 * with the fingerprints, so every machine the fingerprint applies to also ends a similar file; the
 * admin's «también coincide con» compares the observed digests.
 */
export class Migration20261203030000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table `process_fingerprints` add `tlsh` varchar(148) null after `sha256`, add `build_id` varchar(64) null after `tlsh`',
    );
    this.addSql(
      'alter table `observed_processes` add `tlsh` varchar(148) null after `sha256`, add `build_id` varchar(64) null after `tlsh`',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table `observed_processes` drop `tlsh`, drop `build_id`');
    this.addSql('alter table `process_fingerprints` drop `tlsh`, drop `build_id`');
  }
}
