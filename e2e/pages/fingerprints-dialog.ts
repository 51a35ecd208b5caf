import type { Locator, Page } from 'playwright-core';

/**
 * Page model of Procesos › 'Huellas': the fingerprints reported for one process in the
 * active contest, with 'Confirmar' and 'Eliminar'.
 */
export class FingerprintsDialog {
  constructor(private readonly page: Page) {}

  /** The dialog (`data-testid="fingerprints-dialog"`). */
  dialog(): Locator {
    return this.page.getByTestId('fingerprints-dialog');
  }

  /** Presses 'Huellas' on the process's row of /process and waits for the dialog. */
  async open(processRow: Locator): Promise<void> {
    await processRow.getByRole('button', { name: 'Huellas' }).click();
    await this.dialog().waitFor();
  }

  /** The row of a fingerprint, by the start of its SHA-256 as shown. */
  row(sha256: string): Locator {
    return this.dialog()
      .locator('tbody tr')
      .filter({ hasText: sha256.slice(0, 16) });
  }

  /**
   * Presses `action` on a fingerprint's row and answers 'Sí, …' to its question, once the question says
   * `says` when given (e.g. «chrome.exe también coincide con: notas.exe», docs/design.md section 6a).
   */
  async act(sha256: string, action: 'Confirmar' | 'Eliminar', says?: string): Promise<void> {
    await this.row(sha256).getByRole('button', { name: action }).click();
    const question = this.page.getByRole('alertdialog', { name: `¿${action} la huella`, exact: false });
    if (says !== undefined) await question.getByText(says, { exact: false }).waitFor();
    await question
      .getByRole('button', { name: action === 'Confirmar' ? 'Sí, confirmar' : 'Sí, eliminar' })
      .click();
    await question.waitFor({ state: 'hidden' });
  }

  /** Closes the dialog with 'Cerrar'. */
  async close(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Cerrar' }).last().click();
    await this.dialog().waitFor({ state: 'hidden' });
  }
}
