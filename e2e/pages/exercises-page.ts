import type { CDPSession, Locator, Page, Response } from 'playwright-core';
import type { CatalogPage } from './catalog-page.js';

/** Page model of /exercises (docs/spec.md section 2): the PDF modal, 'Ver ejercicios' and 'Ver PDF'. */
export class ExercisesPage {
  private cdp: CDPSession | null = null;

  constructor(
    private readonly page: Page,
    private readonly catalog: CatalogPage,
  ) {}

  /** Slows the browser's uploads to `bytesPerSecond` (Chromium's network emulation); null lifts it. */
  async throttleUploads(bytesPerSecond: number | null): Promise<void> {
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    await this.cdp.send('Network.enable');
    await this.cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond ?? -1,
    });
  }

  /** The upload's percentage on the progress dialog ('42 %'). */
  uploadPercent(): Locator {
    return this.page.getByTestId('progress-dialog').getByTestId('upload-percent');
  }

  /** The progress dialog's 'Cancelar' (aborts the upload). */
  cancelUpload(): Promise<void> {
    return this.page.getByTestId('progress-dialog').getByRole('button', { name: 'Cancelar' }).click();
  }

  async open(): Promise<void> {
    await this.catalog.open('/exercises', 'Información de los ejercicios por concurso');
  }

  /** Opens 'Registrar ejercicios' and chooses a PDF and a level; answers the modal. */
  async fillNew(file: string, level: string): Promise<Locator> {
    const dialog = await this.catalog.openCreate('Registrar ejercicios', 'Registrar ejercicios');
    await dialog.getByLabel('Archivo PDF').setInputFiles(file);
    await dialog.getByLabel('Nivel').selectOption({ label: level });
    return dialog;
  }

  /** Replaces a row's PDF through 'Editar' ('Actualizar ejercicio'). */
  async replace(row: Locator, file: string): Promise<void> {
    const dialog = await this.catalog.openEdit(row, 'Actualizar ejercicio');
    await dialog.getByLabel('Archivo PDF').setInputFiles(file);
    await this.catalog.save(dialog);
  }

  /** Presses 'Ver ejercicios' of a row and answers its dialog. */
  async openList(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: 'Ver ejercicios' }).click();
    const dialog = this.page.getByTestId('exercise-list-dialog');
    await dialog.waitFor();
    return dialog;
  }

  /**
   * A tab's title as the browser shows it (Chromium's PDF viewer leaves `document.title` empty and
   * titles the tab itself), read through the DevTools protocol.
   */
  async tabTitle(tab: Page): Promise<string> {
    const cdp = await tab.context().newCDPSession(tab);
    try {
      return (await cdp.send('Target.getTargetInfo')).targetInfo.title;
    } finally {
      await cdp.detach();
    }
  }

  /**
   * Presses 'Ver PDF' of a row and answers the tab it opens and the PDF's answer in it (a URL
   * ending in the file's own name).
   */
  async openPdf(row: Locator): Promise<{ tab: Page; pdf: Response }> {
    const [tab, pdf] = await Promise.all([
      this.page.waitForEvent('popup'),
      // Listened to on the context from before the click: the tab may navigate before it is handed over.
      this.page
        .context()
        .waitForEvent('response', (response) =>
          /\/api\/exercisePdf\/\d+\/[^/?]+\?ticket=/.test(response.url()),
        ),
      row.getByRole('button', { name: 'Ver PDF' }).click(),
    ]);
    return { tab, pdf };
  }
}
