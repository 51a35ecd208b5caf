import type { Locator, Page } from 'playwright-core';
import type { CatalogPage } from './catalog-page.js';

/** One participant of 'Registrar integrantes'. */
export interface MemberEntry {
  code: string;
  name: string;
  /** The career's option label, e.g. 'Ingeniería en Computación (Ciencias Computacionales)'. */
  career: string;
  semester: number;
}

/** Page model of /teams (docs/spec.md section 2): the team modal, the members dialogs and the agent key. */
export class TeamsPage {
  constructor(
    private readonly page: Page,
    private readonly catalog: CatalogPage,
  ) {}

  async open(): Promise<void> {
    await this.catalog.open('/teams', 'Información de los equipos');
  }

  /** Registers a team through 'Registrar equipo' and answers its id. */
  async registerTeam(name: string, coach: string, level: string): Promise<number> {
    const dialog = await this.catalog.openCreate('Registrar equipo', 'Registrar Equipo');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('Coach').selectOption({ label: coach });
    await dialog.getByLabel('Nivel').selectOption({ label: level });
    await this.catalog.save(dialog);
    return this.catalog.idOf(name);
  }

  /** The 'Concurso' filter over the table: the active contest first, or 'Todos los concursos'. */
  contestFilter(): Locator {
    return this.page.getByTestId('teams-contest-filter').getByLabel('Concurso');
  }

  /** The 'Registrar integrantes del equipo: {team}' modal. */
  membersForm(team: string): Locator {
    return this.page.getByRole('dialog', { name: `Registrar integrantes del equipo: ${team}` });
  }

  /** Every row of the members form. */
  memberRows(form: Locator): Locator {
    return form.getByRole('group', { name: /^Participante \d+$/ });
  }

  /** One row of the members form, by its 1-based position ('Participante {n}'). */
  memberRow(form: Locator, position: number): Locator {
    return form.getByRole('group', { name: `Participante ${position}` });
  }

  /** Opens 'Registrar integrantes' of a row and answers the modal. */
  async openMembersForm(row: Locator, team: string): Promise<Locator> {
    await row.getByRole('button', { name: 'Registrar integrantes' }).click();
    const form = this.membersForm(team);
    await form.waitFor();
    return form;
  }

  /** Fills the rows (adding rows with 'Agregar participante' as needed). */
  async fillMembers(form: Locator, members: readonly MemberEntry[]): Promise<void> {
    for (const [index, member] of members.entries()) {
      if (index > 0) await form.getByRole('button', { name: 'Agregar participante' }).click();
      const row = this.memberRow(form, index + 1);
      await row.getByLabel('Código').fill(member.code);
      await row.getByLabel('Nombre').fill(member.name);
      await row.getByLabel('Carrera').selectOption({ label: member.career });
      await row.getByLabel('Semestre').selectOption(String(member.semester));
    }
  }

  /** Opens 'Ver integrantes' of a row and waits for its list (or its empty text). */
  async openMembers(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: 'Ver integrantes' }).click();
    const dialog = this.page.getByTestId('team-members-dialog');
    await dialog.getByRole('button', { name: 'Cerrar' }).waitFor();
    return dialog;
  }

  /**
   * Presses 'Clave del agente' of a row and reads the key and the commands from the dialog shown once:
   * from a copy of the project (`command`) and for the single executables (`windows`, `linux`).
   */
  async generateAgentKey(
    row: Locator,
  ): Promise<{ key: string; command: string; windows: string; linux: string; dialog: Locator }> {
    await row.getByRole('button', { name: 'Clave del agente' }).click();
    const dialog = this.page.getByTestId('agent-key-dialog');
    await dialog.waitFor();
    const key = await dialog.getByTestId('agent-key').inputValue();
    const command = await dialog.getByTestId('agent-command').inputValue();
    const windows = await dialog.getByTestId('agent-command-windows').inputValue();
    const linux = await dialog.getByTestId('agent-command-linux').inputValue();
    return { key, command, windows, linux, dialog };
  }
}
