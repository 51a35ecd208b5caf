import type { Locator, Page } from 'playwright-core';

/** Page model of the live board (`/homeJuez` and `/home`, docs/spec.md section 2). */
export class BoardPage {
  constructor(private readonly screen: Page) {}

  /** The browser page the board is on. */
  page(): Page {
    return this.screen;
  }

  /** The 'Alerta sonora' switch's checkbox: `isChecked()` says whether it is on. */
  soundAlert(): Locator {
    return this.screen.getByTestId('sound-alert').getByRole('checkbox', { name: 'Alerta sonora' });
  }

  /** The 'Alerta sonora' switch's label: a click turns it on or off. */
  soundAlertLabel(): Locator {
    return this.screen.getByTestId('sound-alert').getByText('Alerta sonora', { exact: true });
  }

  /** The table of one level: `basico`, `intermedio` or `avanzado`. */
  table(level: 'basico' | 'intermedio' | 'avanzado'): Locator {
    return this.screen.getByTestId(`board-${level}`);
  }

  row(teamId: number): Locator {
    return this.screen.getByTestId(`team-row-${teamId}`);
  }

  /** The INTENTOS cell of a team. */
  attempts(teamId: number): Locator {
    return this.screen.getByTestId(`attempts-${teamId}`);
  }

  /** The row's Bloquear / Desbloquear button (the row also has 'Historial'). */
  toggleButton(teamId: number): Locator {
    return this.row(teamId).getByRole('button', { name: /^(Bloquear|Desbloquear)$/ });
  }

  connectionState(): Locator {
    return this.screen.getByTestId('connection-state');
  }

  /** Presses the row's button and accepts '¿Desea cambiar el estatus del equipo?'. */
  async toggleAndConfirm(teamId: number): Promise<void> {
    await this.toggleButton(teamId).click();
    const dialog = this.screen.getByRole('alertdialog', { name: '¿Desea cambiar el estatus del equipo?' });
    await dialog.getByRole('button', { name: 'Sí' }).click();
  }

  /** The 'Estadísticas' panel under the board: figures, charts and their toggle. */
  statsPanel(): Locator {
    return this.screen.getByTestId('stats-panel');
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
    await this.screen.getByRole('button', { name: 'Cerrar Sesión' }).click();
  }
}
