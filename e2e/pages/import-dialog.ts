import type { Download, Locator, Page } from 'playwright-core';

/** A registration file handed to the dialog's file picker (no file on disk needed). */
export interface ImportFile {
  /** The file's name, e.g. `registro.xlsx`: the dialog and the server accept `.xlsx` and `.csv`. */
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Page model of /teams' 'Importar equipos e integrantes' dialog (bulk import of teams and
 * members): the contest, the registration file, 'Descargar plantilla', the preview's teams and bad
 * rows by line, and 'Importar N equipos'.
 */
export class ImportDialog {
  constructor(private readonly page: Page) {}

  /** Presses the header's 'Importar' on /teams (already open) and waits for the dialog. */
  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Importar', exact: true }).click();
    await this.dialog().waitFor();
  }

  /** The open dialog. */
  dialog(): Locator {
    return this.page.getByTestId('import-teams-dialog');
  }

  /** The 'Concurso' select (the active contest chosen at each opening). */
  contest(): Locator {
    return this.dialog().getByLabel('Concurso');
  }

  /** Chooses `file` in the (visually hidden) file input and waits until the dialog names it. */
  async chooseFile(file: ImportFile): Promise<void> {
    await this.dialog().locator('input[type="file"]').setInputFiles(file);
    await this.dialog().getByTestId('chosen-file').filter({ hasText: file.name }).waitFor();
  }

  /** The preview's warning on a CSV read as Windows-1252. */
  encodingNote(): Locator {
    return this.dialog().getByTestId('import-encoding-note');
  }

  /** The preview's table of teams to create (EQUIPO, NIVEL, COACH, INTEGRANTES, NOMBRES). */
  previewTeams(): Locator {
    return this.dialog().getByTestId('import-teams').locator('tbody tr');
  }

  /** The bad rows as listed: 'Línea 5: Nivel desconocido «Experto»'. */
  errors(): Locator {
    return this.dialog().getByTestId('import-errors').getByRole('listitem');
  }

  /**
   * The dialog's import button: 'Importar N equipos' ('Importar 1 equipo') when the preview allows it,
   * plain 'Importar' (disabled) before or with bad rows.
   */
  importButton(): Locator {
    return this.dialog().getByRole('button', { name: /^Importar( \d+ equipos?)?$/ });
  }

  /**
   * Presses 'Importar {teams} equipos' (Playwright waits until it is enabled, i.e. the preview of the
   * chosen file has no bad row) and waits for the dialog to close, as it does on success.
   */
  async runImport(teams: number): Promise<void> {
    await this.dialog()
      .getByRole('button', { name: `Importar ${teams} ${teams === 1 ? 'equipo' : 'equipos'}`, exact: true })
      .click();
    await this.dialog().waitFor({ state: 'hidden' });
  }

  /** Presses 'Descargar plantilla' and answers the download (`plantilla-equipos.xlsx`). */
  async downloadTemplate(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.dialog().getByRole('button', { name: 'Descargar plantilla' }).click(),
    ]);
    return download;
  }
}

/** Page model of /teams' 'Importaciones' dialog: the imports and their 'Deshacer'. */
export class TeamImportsDialog {
  constructor(private readonly page: Page) {}

  /** Presses the header's 'Importaciones' on /teams (already open) and waits for its list. */
  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Importaciones', exact: true }).click();
    await this.dialog().getByTestId('data-table').waitFor();
  }

  dialog(): Locator {
    return this.page.getByTestId('team-imports-dialog');
  }

  /** The row of the import of file `fileName` (the newest first). */
  row(fileName: string): Locator {
    return this.dialog().locator('tbody tr').filter({ hasText: fileName }).first();
  }

  /** Presses the row's 'Deshacer' and confirms 'Sí, deshacer'; answers the question's text. */
  async undo(fileName: string): Promise<string> {
    await this.row(fileName).getByRole('button', { name: 'Deshacer' }).click();
    const question = this.page.getByRole('alertdialog', { name: /^¿Deshacer la importación/ });
    const text = (await question.textContent()) ?? '';
    await question.getByRole('button', { name: 'Sí, deshacer' }).click();
    await question.waitFor({ state: 'hidden' });
    return text;
  }

  async close(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Cerrar' }).first().click();
    await this.dialog().waitFor({ state: 'hidden' });
  }
}
