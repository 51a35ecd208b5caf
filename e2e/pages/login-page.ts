import type { Locator, Page } from 'playwright-core';

/** Page model of the login screen `/` (SPEC.md section 2). */
export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/`);
  }

  /** Fills the form and presses 'Iniciar Sesión'. */
  async signIn(username: string, password: string): Promise<void> {
    await this.page.getByLabel('Usuario').fill(username);
    await this.page.getByLabel('Contraseña').fill(password);
    await this.page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  }

  /** The open error dialog's text. */
  errorDialog() {
    return this.page.getByRole('alertdialog');
  }

  /** The notice of a session that ended elsewhere: 'Su sesión terminó. Inicie sesión de nuevo.'. */
  sessionEndedNotice(): Locator {
    return this.page.getByTestId('session-ended');
  }
}
