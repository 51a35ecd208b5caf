import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';

/** A page signed in on a browser context of its own (its own localStorage: its own session). */
export interface SignedInPage {
  page: Page;
  /** The page's context, for the caller to close (closing it ends nothing on the server). */
  context: BrowserContext;
}

/**
 * Opens a new browser context of `browser` (with `options`, e.g. a viewport), signs in on its first
 * page as `username` through the login screen at `baseUrl` and waits until the app lands on `landing`
 * (`/home` for an administrator, `/homeJuez` for a judge). A context per person or per screen: two
 * tabs of one context share the token, and Chromium throttles the timers of a background tab.
 * `options.timeoutMs` (ms), when given, is the context's default timeout (`context.setDefaultTimeout`)
 * from the sign-in on: the longest wait of every action and navigation that names none (Playwright's
 * own is 30 s, which a first page load on a loaded machine passed).
 */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  username: string,
  password: string,
  landing: string,
  options: BrowserContextOptions & { timeoutMs?: number } = {},
): Promise<SignedInPage> {
  const { timeoutMs, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  if (timeoutMs !== undefined) context.setDefaultTimeout(timeoutMs);
  const page = await context.newPage();
  const login = new LoginPage(page, baseUrl);
  await login.open();
  await login.signIn(username, password);
  await page.waitForURL(`${baseUrl}${landing}`);
  return { page, context };
}

/** Page model of the login screen `/` (docs/spec.md section 2). */
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
