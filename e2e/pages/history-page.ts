import type { Download, Locator, Page } from 'playwright-core';

/**
 * Page model of the history screens (docs/design.md section 4): a board row's 'Historial'
 * dialog and /bitacora, the active contest's log.
 */
export class HistoryPage {
  constructor(private readonly page: Page) {}

  /** Presses 'Historial' on a board row. */
  async openTeamHistory(teamId: number): Promise<void> {
    await this.page.getByTestId(`team-row-${teamId}`).getByRole('button', { name: 'Historial' }).click();
  }

  /** The open 'Historial del equipo: …' dialog. */
  dialog(): Locator {
    return this.page.getByTestId('team-history-dialog');
  }

  /** The dialog's attempts (PROCESO, EN LA MÁQUINA, RECIBIDO, TERMINADO), newest first. */
  attemptRows(): Locator {
    return this.dialog().getByTestId('team-history-attempts').locator('tbody tr');
  }

  /** The dialog's status changes (CAMBIO, QUIÉN, CUÁNDO), newest first. */
  statusRows(): Locator {
    return this.dialog().getByTestId('team-history-status').locator('tbody tr');
  }

  /** Closes the dialog with 'Cerrar' and waits until it is gone. */
  async closeDialog(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Cerrar' }).click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  /** Follows the header's 'Bitácora' link and waits for the screen's title. */
  async openLogFromMenu(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Menú principal' })
      .getByRole('link', { name: 'Bitácora' })
      .click();
    await this.page.getByRole('heading', { name: 'Bitácora del concurso' }).waitFor();
  }

  /** The /bitacora table's rows on the shown page. */
  logRows(): Locator {
    return this.page.getByTestId('data-table').locator('tbody tr');
  }

  /** The line naming the log's contest: 'Concurso 2027A · 01/02/2027'. */
  logContest(): Locator {
    return this.page.getByTestId('contest-log-contest');
  }

  /** Chooses an EQUIPO filter by the team's name (the active contest's teams only). */
  async filterTeam(name: string): Promise<void> {
    await this.page.getByLabel('Equipo', { exact: true }).selectOption({ label: name });
  }

  /** Chooses a TIPO filter by its label ('Intentos', 'Estatus', 'Agentes', 'Mensajes', 'Red'; 'Todos'). */
  async filterKind(label: string): Promise<void> {
    await this.page.getByLabel('Tipo', { exact: true }).selectOption({ label });
  }

  /** Chooses a PROCESO filter ('' for 'Todos'). */
  async filterProcess(name: string): Promise<void> {
    await this.page.getByLabel('Proceso').selectOption(name);
  }

  /** Presses the table's 'Excel' export and answers the download. */
  async exportExcel(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('group', { name: 'Exportar' }).getByRole('button', { name: 'Excel' }).click();
    return download;
  }
}
