import type { Locator, Page } from 'playwright-core';

/** Page model of the contests screen's blocked-process dialogs ('Asignar procesos', 'Ver procesos'). */
export class ContestProcessesDialogs {
  constructor(private readonly page: Page) {}

  /** The 'Asignar procesos bloqueados al concurso' modal. */
  assignDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Asignar procesos bloqueados al concurso' });
  }

  /** Opens the assign modal of a contest row and waits for its checkbox list. */
  async openAssign(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: 'Asignar procesos' }).click();
    const dialog = this.assignDialog();
    await dialog.getByRole('checkbox').first().waitFor({ state: 'attached' });
    return dialog;
  }

  /** Ticks (or unticks) a process by clicking its label. */
  async toggle(name: string): Promise<void> {
    await this.assignDialog().getByTestId('process-options').getByText(name, { exact: true }).click();
  }

  /** 'Seleccionaste: …'. */
  selectedText(): Locator {
    return this.assignDialog().getByTestId('selected-processes');
  }

  /** Presses 'Guardar' and waits for the modal to close. */
  async saveAssignment(): Promise<void> {
    const dialog = this.assignDialog();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** Opens 'Ver procesos' of a contest row. */
  async openView(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: 'Ver procesos' }).click();
    const dialog = this.page.getByTestId('contest-processes-dialog');
    await dialog.waitFor();
    return dialog;
  }
}
