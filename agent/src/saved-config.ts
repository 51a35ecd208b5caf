/**
 * The last configuration the agent received, kept in its data folder so a start without the server
 * (a machine booting before the network or the server) keeps enforcing it: the blocked names, the
 * fingerprints, whether it observes, the periods (docs/design.md section 6: the agent never exits because
 * its server is unreachable). The network policy inside it is also kept by network-guard.ts, which
 * puts its rules back at start; this file is what the scans need.
 *
 * The file is the server's answer as it came (`agentConfigSchema`), with the server it came from and
 * the SHA-256 of the key it was read with: a configuration of another server or another key (a machine
 * moved to another team) is not used. It is written atomically (temporary file, fsync, rename), and
 * read back through the shared schema: a file that does not pass is ignored with one log line and
 * replaced by the next configuration the server gives. The data folder itself is checked by
 * secure-path.ts before anything in it is read.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { agentConfigSchema, type AgentConfig } from '@concurso/shared';
import { describeError } from './errors.js';
import { writeAtomically } from './outbox.js';
import { TEXTS } from './texts.js';

/** The file's layout version. */
const FILE_VERSION = 1;

/** Options of a `SavedConfig`. */
export interface SavedConfigOptions {
  /** The file, in the data folder (`config-<servidor>.json`, agent.ts names it). */
  file: string;
  /** The server's base URL, as `normaliseServerUrl` gives it. */
  server: string;
  /** The agent's key: only its SHA-256 is written. */
  key: string;
  log: (line: string) => void;
}

/** The saved configuration of one server and key. Saves run one after another; never throws. */
export class SavedConfig {
  readonly file: string;
  private readonly keySha256: string;
  /** The text last written (or read): an unchanged configuration is not written again. */
  private lastText: string | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** The last write failure logged, so a full disk is said once, not at every config read. */
  private lastFailure: string | null = null;

  constructor(private readonly options: SavedConfigOptions) {
    this.file = options.file;
    this.keySha256 = createHash('sha256').update(options.key).digest('hex');
  }

  /**
   * The saved configuration, or null when there is none, or it belongs to another server or key.
   * A file that is not JSON or whose `config` does not pass `agentConfigSchema` answers null and is
   * logged (`TEXTS.savedConfigCorrupt`). Never throws.
   */
  async load(): Promise<AgentConfig | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.options.log(TEXTS.dataDir(this.file, describeError(error)));
      return null;
    }
    let saved: { version?: unknown; server?: unknown; key_sha256?: unknown; config?: unknown };
    try {
      saved = JSON.parse(text) as typeof saved;
    } catch {
      saved = {};
    }
    const config = agentConfigSchema.safeParse(saved?.config);
    if (saved?.version !== FILE_VERSION || !config.success) {
      this.options.log(TEXTS.savedConfigCorrupt(this.file));
      return null;
    }
    if (saved.server !== this.options.server || saved.key_sha256 !== this.keySha256) return null;
    this.lastText = text;
    return config.data;
  }

  /**
   * Writes `config` (atomically) unless it is what the file already holds. Resolves once written;
   * a failure is logged (once until it changes), never thrown: the agent goes on with the config in
   * memory.
   */
  save(config: AgentConfig): Promise<void> {
    const text = `${JSON.stringify({
      version: FILE_VERSION,
      server: this.options.server,
      key_sha256: this.keySha256,
      config,
    })}\n`;
    this.writing = this.writing.then(async () => {
      if (text === this.lastText) return;
      try {
        await writeAtomically(this.file, text);
        this.lastText = text;
        this.lastFailure = null;
      } catch (error) {
        const reason = describeError(error);
        if (reason !== this.lastFailure) this.options.log(TEXTS.savedConfigFailed(this.file, reason));
        this.lastFailure = reason;
      }
    });
    return this.writing;
  }

  /** Resolves once every save asked for so far is done. */
  idle(): Promise<void> {
    return this.writing;
  }
}
