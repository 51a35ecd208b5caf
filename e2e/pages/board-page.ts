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

  /** The 'Estadísticas' panel under the board (issue 13): figures, charts and their toggle. */
  statsPanel(): Locator {
    return this.page.getByTestId('stats-panel');
  }

  /**
   * A figure of the panel: 'teams-blocked' (EQUIPOS BLOQUEADOS, 'N de M'), 'attempts' (INTENTOS) or
   * 'top-process' (PROCESO MÁS INTENTADO).
   */
  statsFigure(name: 'teams-blocked' | 'attempts' | 'top-process'): Locator {
    return this.statsPanel().getByTestId(`stats-${name}`);
  }

  /** The panel's charts (attempts per minute, processes), loaded once the panel comes into view. */
  statsCharts(): Locator {
    return this.statsPanel().getByTestId('stats-charts');
  }

  /** The panel's 'Ocultar gráficas' / 'Mostrar gráficas' button, by the label it shows now. */
  chartsToggle(label: 'Ocultar gráficas' | 'Mostrar gráficas'): Locator {
    return this.statsPanel().getByRole('button', { name: label, exact: true });
  }

  /** Presses the shared header's 'Cerrar Sesión'. */
  async signOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Cerrar Sesión' }).click();
  }
}
