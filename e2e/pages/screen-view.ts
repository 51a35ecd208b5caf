import type { Locator, Page } from 'playwright-core';

/** Page model of «Ver pantalla»: the button of a board row and its dialog. */
export class ScreenView {
  constructor(private readonly screen: Page) {}

  /** The «Ver pantalla» button of team `teamId`'s board row. */
  boardButton(teamId: number): Locator {
    return this.screen.getByTestId(`view-screen-${teamId}`);
  }

  dialog(): Locator {
    return this.screen.getByTestId('view-screen-dialog');
  }

  /** The captures the dialog shows, each an image with its caption. */
  captures(): Locator {
    return this.dialog().getByTestId('view-screen-capture');
  }

  /** The «Ver en vivo» switch's label: a click turns it on or off. */
  liveLabel(): Locator {
    return this.dialog().getByText('Ver en vivo', { exact: true });
  }

  /** Whether the first capture's image finished loading with pixels (its natural width, 0 when not). */
  async firstImageWidth(): Promise<number> {
    return this.captures()
      .first()
      .locator('img')
      .evaluate((img) => ((img as HTMLImageElement).complete ? (img as HTMLImageElement).naturalWidth : 0));
  }
}
