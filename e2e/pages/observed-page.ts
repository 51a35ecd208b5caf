import type { Locator, Page } from 'playwright-core';

/**
 * Page model of /procesosObservados (what ran in the lab): the executables the agents saw
 * start on the teams' machines, and an administrator's 'Bloquear'.
 */
export class ObservedPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /** Opens the screen by its address and waits for its title. */
  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/procesosObservados`);
    await this.title().waitFor();
  }

  /** The screen's heading. */
  title(): Locator {
    return this.page.getByRole('heading', {
      name: 'Información de los programas ejecutados en las máquinas',
    });
  }

  /**
   * Types `text` into 'Buscar:' and waits for the server's answer to that search (the
   * server searches names, team names and fingerprints, after a short pause in the typing).
   */
  async search(text: string): Promise<void> {
    const answered = this.page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/observedProcesses' && url.searchParams.get('q') === text;
    });
    await this.page.getByRole('searchbox').fill(text);
    await answered;
  }

  /** The table row of an executable, by its file name as the machines ran it. */
  row(name: string): Locator {
    return this.page
      .getByTestId('data-table')
      .locator('tbody tr')
      .filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  /**
   * Presses 'Bloquear' on a row and confirms the question once it names the teams that reported it
   * (the fingerprint is their claim) and where the fingerprint applies.
   */
  async block(name: string, reportedBy: string): Promise<void> {
    await this.row(name).getByRole('button', { name: 'Bloquear' }).click();
    const question = this.page.getByRole('alertdialog', {
      name: `¿Bloquear ${name} en el concurso`,
      exact: false,
    });
    await question.getByText(`Lo reportó: ${reportedBy}.`, { exact: false }).waitFor();
    await question.getByText('confirme en Procesos › Huellas', { exact: false }).waitFor();
    await question.getByRole('button', { name: 'Sí, bloquear' }).click();
    await question.waitFor({ state: 'hidden' });
  }
}
