import type { Locator, Page } from 'playwright-core';

/** Page model of the hall's projector view `/proyector` (docs/design.md section 1). */
export class ProjectorPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /**
   * Opens `/proyector`, or `/proyector?nivel=<id>`, with `?segundos=<s>` (the paging period) when
   * given, and waits until it is live.
   */
  async open(nivel?: number, segundos?: number): Promise<void> {
    const query = new URLSearchParams();
    if (nivel) query.set('nivel', String(nivel));
    if (segundos) query.set('segundos', String(segundos));
    await this.page.goto(`${this.baseUrl}/proyector${query.size ? `?${query}` : ''}`);
    await this.page.getByTestId('connection-state').filter({ hasText: 'Conectado' }).waitFor();
  }

  column(level: 'basico' | 'intermedio' | 'avanzado'): Locator {
    return this.page.getByTestId(`projector-${level}`);
  }

  /** A level's 'Página 1 de 3' line (absent when its rows fit in one page). */
  pageLabel(level: 'basico' | 'intermedio' | 'avanzado'): Locator {
    return this.page.getByTestId(`projector-page-${level}`);
  }

  row(teamId: number): Locator {
    return this.page.getByTestId(`projector-row-${teamId}`);
  }

  /** The computed font size (px) of a team's name in its row. */
  nameFontSize(teamId: number, name: string): Promise<number> {
    return this.row(teamId)
      .getByText(name)
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  }

  attempts(teamId: number): Locator {
    return this.page.getByTestId(`projector-attempts-${teamId}`);
  }

  /** Team ids of a level in the order shown. */
  async order(level: 'basico' | 'intermedio' | 'avanzado'): Promise<number[]> {
    const ids = await this.column(level)
      .locator('[data-testid^="projector-row-"]')
      .evaluateAll((rows) =>
        rows.map((r) => Number(r.getAttribute('data-testid')!.replace('projector-row-', ''))),
      );
    return ids;
  }
}
