import type { Locator, Page } from 'playwright-core';

/**
 * Page model of /laboratorio (the lab board): the active contest's machines, the readiness
 * line and the teams without a running agent.
 */
export class LabPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /** Opens the screen by its address and waits for its title. */
  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/laboratorio`);
    await this.page.getByRole('heading', { name: 'Información de las máquinas del laboratorio' }).waitFor();
  }

  /** 'Listos: N de M equipos'. */
  readiness(): Locator {
    return this.page.getByTestId('lab-readiness');
  }

  /** 'Sin agente en marcha: …'. */
  missing(): Locator {
    return this.page.getByTestId('lab-missing');
  }

  /** The table's first row under its header (the default order puts machines with an alarm there). */
  firstRow(): Locator {
    return this.page.getByRole('row').nth(1);
  }

  /**
   * The AGENTE badge of a row (`data-agent-state`: alarma, detenido, sin_conexion, en_linea), e.g.
   * 'Agente detenido sin reanudar hace 5 s'.
   */
  agent(row: Locator): Locator {
    return row.locator('[data-agent-state]');
  }

  /** The table row of a machine, by its host name. */
  row(hostname: string): Locator {
    return this.page.getByRole('row').filter({ hasText: hostname });
  }

  /**
   * The RED badge of a machine's row, found by any text of the row (its host name or its
   * team): 'red: v1 aplicada', with `data-network-tone` ok, warning, error or neutral.
   */
  network(rowText: string): Locator {
    return this.row(rowText).locator('[data-network-tone]');
  }

  /** The POLÍTICA badge of a machine's row (`data-policy-state`: al_dia, atrasada, sin_senal). */
  policy(hostname: string): Locator {
    return this.row(hostname).locator('[data-policy-state]');
  }
}
