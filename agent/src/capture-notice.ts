/**
 * The contestant is told once that the machine's screen is captured (agent/README.md, «Capturas de
 * pantalla»): when the contest is active with `capture_screens` on, a notice through the judges'
 * messages dialog (message-screen.ts `notice`, titled «Aviso del concurso»). Once per contest and data folder: a file there remembers it
 * across restarts; a notice that could not be shown (no graphical session yet) is tried again with
 * the next config the agent takes.
 */
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentConfig } from '@concurso/shared';
import type { MessageScreen } from './message-screen.js';

/** What the contestant reads. */
export const CAPTURE_NOTICE_TEXT =
  'Durante este concurso, este equipo toma capturas de pantalla cuando se termina un programa bloqueado o cuando un juez lo pide.';

/** How long the notice stays on the screen unless closed (ms). */
const NOTICE_SHOWN_MS = 10 * 60_000;

/** Shows the notice once per contest. */
export class CaptureNotice {
  /** Contests told already (or being told). */
  private readonly told = new Set<number>();
  private lastFailure: string | null = null;

  constructor(
    private readonly screen: MessageScreen,
    private readonly dataDir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Shows the notice when `config` asks for captures in its active contest and it was not shown yet. */
  follow(config: AgentConfig): void {
    const contest = config.contest.id;
    if (!this.screen.notice || !config.contest.active || config.capture_screens !== true) return;
    if (this.told.has(contest)) return;
    const notice = this.screen.notice.bind(this.screen);
    this.told.add(contest);
    const marker = path.join(this.dataDir, `aviso-capturas-${contest}.txt`);
    void (async () => {
      const already = await access(marker).then(
        () => true,
        () => false,
      );
      if (already) return;
      const outcome = await notice({
        id: 0,
        text: CAPTURE_NOTICE_TEXT,
        expires_at: new Date(Date.now() + NOTICE_SHOWN_MS).toISOString(),
      }).shown;
      if (!outcome.shown) {
        // Tried again with the next config (no graphical session yet, a contestant not logged in).
        this.told.delete(contest);
        if (outcome.reason !== this.lastFailure)
          this.log(`No se pudo mostrar el aviso de capturas de pantalla: ${outcome.reason}.`);
        this.lastFailure = outcome.reason;
        return;
      }
      this.lastFailure = null;
      this.log('Se mostró el aviso de capturas de pantalla.');
      await writeFile(marker, `${new Date().toISOString()}\n`).catch(() => undefined);
    })();
  }
}
