import type { Locator } from 'playwright-core';
import type { CatalogPage } from './catalog-page.js';

/** A user to register. `password` only for administrators and judges. */
export interface UserEntry {
  name: string;
  username: string;
  password?: string;
}

/** Page model of /usersAdmin, /usersJuez and /usersParticipants (docs/spec.md section 2). */
export class UsersPage {
  constructor(private readonly catalog: CatalogPage) {}

  async open(path: '/usersAdmin' | '/usersJuez' | '/usersParticipants', title: string): Promise<void> {
    await this.catalog.open(path, title);
  }

  /** Opens 'Registrar usuario' and answers the 'Registrar Usuario' modal. */
  openCreate(): Promise<Locator> {
    return this.catalog.openCreate('Registrar usuario', 'Registrar Usuario');
  }

  /** Fills the modal ('Nombre completo', 'Username', 'Password' when given). */
  async fill(dialog: Locator, user: UserEntry): Promise<void> {
    await dialog.getByLabel('Nombre completo').fill(user.name);
    await dialog.getByLabel('Username').fill(user.username);
    if (user.password !== undefined) await dialog.getByLabel('Password').fill(user.password);
  }

  /** Registers a user and answers the new row's id. */
  async register(user: UserEntry): Promise<number> {
    const dialog = await this.openCreate();
    await this.fill(dialog, user);
    await this.catalog.save(dialog);
    return this.catalog.idOf(user.username);
  }
}
