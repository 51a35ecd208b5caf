import type { Locator, Page } from 'playwright-core';

/** Page model of the live board (`/homeJuez` and `/home`, SPEC.md section 2). */
export class BoardPage {
  constructor(private readonly page: Page) {}

  /** The table of one level: `basico`, `intermedio` or `avanzado`. */
  table(level: 'basico' | 'intermedio' | 'avanzado'): Locator {
    return this.page.getByTestId(`board-${level}`);
  }

  row(teamId: number): Locator {
    return this.page.getByTestId(`team-row-${teamId}`);
  }

  /** The INTENTOS cell of a team. */
  attempts(teamId: number): Locator {
    return this.page.getByTestId(`attempts-${teamId}`);
  }

  /** The row's Bloquear / Desbloquear button (the row also has 'Historial', issue 13). */
  toggleButton(teamId: number): Locator {
    return this.row(teamId).getByRole('button', { name: /^(Bloquear|Desbloquear)$/ });
  }

  connectionState(): Locator {
    return this.page.getByTestId('connection-state');
  }

  /** Presses the row's button and accepts '¿Desea cambiar el estatus del equipo?'. */
  async toggleAndConfirm(teamId: number): Promise<void> {
    await this.toggleButton(teamId).click();
    const dialog = this.page.getByRole('alertdialog', { name: '¿Desea cambiar el estatus del equipo?' });
    await dialog.getByRole('button', { name: 'Sí' }).click();
  }

  /** Presses the shared header's 'Cerrar Sesión'. */
  async signOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Cerrar Sesión' }).click();
  }
}
