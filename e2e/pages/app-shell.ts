import type { Locator, Page } from 'playwright-core';

/**
 * Page model of the shared layout's header (every screen but / and /proyector, docs/spec.md section 2):
 * the wide header's menus and 'Cerrar Sesión', and below 768 px the one 'Menú' they fold into.
 */
export class AppShell {
  constructor(readonly page: Page) {}

  header(): Locator {
    return this.page.locator('header');
  }

  /** The header's navigation landmark that is shown (the wide bar or the narrow 'Menú'). */
  nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Menú principal' });
  }

  /** The narrow header's 'Menú' button. */
  compactMenuButton(): Locator {
    return this.header().getByRole('button', { name: /^Menú/ });
  }

  /** The wide header's 'Cerrar Sesión' button. */
  logoutButton(): Locator {
    return this.header().getByRole('button', { name: 'Cerrar Sesión' });
  }

  /** The open menu (a popup listing links as menu items). */
  openMenu(): Locator {
    return this.page.getByRole('menu');
  }

  /**
   * In the open menu, moves with ArrowDown to the item named `name` (at most 30 presses) and presses
   * Enter on it, as a keyboard user does.
   * @throws when the item is never highlighted.
   */
  async chooseByKeyboard(name: string): Promise<void> {
    const item = this.openMenu().getByRole('menuitem', { name, exact: true });
    for (let press = 0; press < 30; press += 1) {
      if ((await item.getAttribute('data-highlighted')) !== null) {
        await this.page.keyboard.press('Enter');
        return;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`ArrowDown never reached '${name}' in the menu`);
  }

  /**
   * Moves to `path` inside the app as its links do (history push and popstate, read by React
   * Router): no reload, so a walk over many screens keeps one signed-in page and its loaded code.
   * Resolves once the new screen is drawn: React Router keeps the old one up during its transition,
   * and each screen names the tab once drawn, every one differently (`document-title.ts` of the web).
   */
  async navigate(path: string): Promise<void> {
    const before = await this.page.evaluate(() => ({ path: location.pathname, title: document.title }));
    if (before.path === path) return;
    await this.page.evaluate((target) => {
      window.history.pushState({}, '', target);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await this.page.waitForFunction((old) => document.title !== old, before.title);
  }
}
