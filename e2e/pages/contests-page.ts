import type { Download, Locator, Page } from 'playwright-core';
import type { CatalogPage } from './catalog-page.js';

/** The contest modal's automatic block field. */
export const MAX_ATTEMPTS_LABEL = 'Descalificar automáticamente al llegar a N intentos';

/** The create modal's blocked-set copy. */
export const COPY_FROM_LABEL = 'Copiar procesos bloqueados de';

/** Page model of /contests' active contest: the ACTIVO badge, 'Activar' and its question. */
export class ContestsPage {
  constructor(
    private readonly page: Page,
    private readonly catalog: CatalogPage,
  ) {}

  async open(): Promise<void> {
    await this.catalog.open('/contests', 'Información de los concursos');
  }

  /** The row's 'Activo' badge (absent on every other row). */
  activeBadge(row: Locator): Locator {
    return row.getByText('Activo', { exact: true });
  }

  /** The row's MÁX. INTENTOS cell (after ID, CALENDAR, DATE and ACTIVO); empty when there is none. */
  maxAttempts(row: Locator): Locator {
    return row.getByRole('cell').nth(4);
  }

  /** The row's 'Activar' button (absent on the active row). */
  activateButton(row: Locator): Locator {
    return row.getByRole('button', { name: 'Activar' });
  }

  /** Presses 'Activar' of a row and answers the question '¿Activar el concurso {calendar}?'. */
  async askActivation(row: Locator, calendar: string): Promise<Locator> {
    await this.activateButton(row).click();
    const question = this.page.getByRole('alertdialog', { name: `¿Activar el concurso ${calendar}?` });
    await question.waitFor();
    return question;
  }

  /** Accepts the activation question with 'Sí, activar' and waits for it to close. */
  async confirmActivation(question: Locator): Promise<void> {
    await question.getByRole('button', { name: 'Sí, activar' }).click();
    await question.waitFor({ state: 'hidden' });
  }

  /** The row's 'Reporte' button, which opens the menu 'PDF' / 'Excel'. */
  reportButton(row: Locator): Locator {
    return row.getByRole('button', { name: 'Reporte' });
  }

  /**
   * Opens the row's 'Reporte' menu, chooses `format` and answers the download
   * (`reporte-<calendar>.pdf` / `.xlsx`, written in the browser).
   */
  async downloadReport(row: Locator, format: 'PDF' | 'Excel'): Promise<Download> {
    await this.reportButton(row).click();
    const item = this.page.getByRole('menuitem', { name: format, exact: true });
    const [download] = await Promise.all([this.page.waitForEvent('download'), item.click()]);
    return download;
  }
}
