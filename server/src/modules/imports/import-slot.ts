import { IMPORT_MESSAGES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/** The one import a server process runs at a time (docs/design.md 6a): taken, then released. */
export interface ImportSlot {
  /**
   * Runs `work` holding the slot and releases it when `work` settles, however it ends (an answer,
   * an error, a client gone mid-upload).
   * @throws HttpError 429 (`IMPORT_MESSAGES.busy`) at once while another import holds it.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * One slot for a server's previews and imports (three 4.5 GB zip bombs at once took 3.4 GB
 * and the health check down): a second request while one is read and checked is refused with 429
 * instead of waiting, so one stolen admin key cannot queue up memory and CPU. Per app, so two test
 * servers in one process keep their own.
 */
export function importSlot(): ImportSlot {
  let busy = false;
  return {
    async run(work) {
      if (busy) throw new HttpError(429, IMPORT_MESSAGES.busy);
      busy = true;
      try {
        return await work();
      } finally {
        busy = false;
      }
    },
  };
}
