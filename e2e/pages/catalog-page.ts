import type { Download, Locator, Page } from 'playwright-core';

/**
 * Page model of a catalogue screen (/contests, /levels, /schools, /departaments, /careers, /coaches,
 * /process): the shared data table, the 'Registrar …' modal, row actions and the feedback dialogs.
 */
export class CatalogPage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /**
   * Opens `path` and waits for its title and its first load: the paging line shows from the first
   * render ('Mostrando del 0 al 0 de 0 registros' while the rows load), so the load is over when the
   * table's 'Cargando…' spinner is gone too.
   */
  async open(path: string, title: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
    await this.page.getByRole('heading', { level: 1, name: title }).waitFor();
    await this.info()
      .filter({ hasText: /^Mostrando/ })
      .waitFor();
    await this.table().getByRole('status', { name: 'Cargando…' }).waitFor({ state: 'detached' });
  }

  /** The table with its toolbar and paging (`data-testid="data-table"`). */
  table(): Locator {
    return this.page.getByTestId('data-table');
  }

  /** 'Mostrando del … al … de … registros'. */
  info(): Locator {
    return this.page.getByTestId('data-table-info');
  }

  /** The row of an id (`data-testid="row-{id}"`). */
  row(id: number): Locator {
    return this.page.getByTestId(`row-${id}`);
  }

  /** The body row showing `text` (a name, a calendar…). */
  rowWith(text: string): Locator {
    return this.table().locator('tbody tr').filter({ hasText: text });
  }

  /** The id of the row showing `text`, read from its `data-testid`. */
  async idOf(text: string): Promise<number> {
    const row = this.rowWith(text);
    await row.waitFor();
    const testId = await row.getAttribute('data-testid');
    return Number(testId?.replace('row-', ''));
  }

  /** Types in 'Buscar:'. */
  async search(text: string): Promise<void> {
    await this.table().getByLabel('Buscar:').fill(text);
  }

  /** Presses 'Registrar …' and answers the modal. */
  async openCreate(button: string, title: string): Promise<Locator> {
    await this.page.getByRole('button', { name: button, exact: true }).click();
    const dialog = this.formDialog(title);
    await dialog.waitFor();
    return dialog;
  }

  /** Presses the row's 'Editar' and answers the modal. */
  async openEdit(row: Locator, title: string): Promise<Locator> {
    await row.getByRole('button', { name: 'Editar' }).click();
    const dialog = this.formDialog(title);
    await dialog.waitFor();
    return dialog;
  }

  /** The open create / edit modal titled `title`. */
  formDialog(title: string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }

  /** Presses 'Guardar' and waits for the modal to close (a successful save). */
  async save(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** Presses the row's 'Eliminar' and confirms with 'Sí, eliminar'. */
  async deleteRow(row: Locator): Promise<void> {
    await row.getByRole('button', { name: 'Eliminar' }).click();
    const question = this.page.getByRole('alertdialog', { name: '¿Está seguro?' });
    await question.getByRole('button', { name: 'Sí, eliminar' }).click();
    await question.waitFor({ state: 'hidden' });
  }

  /** A message dialog ('Error', 'Información', '¡Correcto!'…). */
  messageDialog(title: string): Locator {
    return this.page.getByRole('alertdialog', { name: title });
  }

  /** Closes a message dialog with its only button ('Listo!'). */
  async dismiss(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Listo!' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** A toast containing `text` ('Registrado', 'Dato Eliminado.'…). */
  toast(text: string): Locator {
    return this.page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: text });
  }

  /** Presses an export button ('Excel', 'PDF') and answers the download. */
  async download(button: 'Excel' | 'PDF'): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.table().getByRole('button', { name: button, exact: true }).click(),
    ]);
    return download;
  }
}
