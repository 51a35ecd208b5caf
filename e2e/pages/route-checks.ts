import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';

/**
 * What the responsive journey measures on any screen (every screen on every device): that
 * the page does not scroll sideways, axe-core's serious and critical findings, and whether a focused
 * element shows a focus ring. Screen-agnostic, so it works on every route of the route table.
 */

/** One axe-core finding, reduced to what a failure message needs. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** The offending nodes (the first few): selector, markup and axe's summary of what fails. */
  targets: string[];
}

/**
 * Waits until the screen has loaded and stands still: its level-1 heading is there, no spinner (the
 * session check, a lazy screen, a table's first load) nor busy table is left, and no finite CSS
 * transition or animation runs (a button fading from disabled to enabled would be judged by axe on
 * its way, in colours it never rests in; endless ones such as a spinner's are not waited for).
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('h1') !== null &&
      document.querySelector('.chakra-spinner, [aria-busy="true"]') === null &&
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Infinity,
        ),
  );
}

/** The page's overflow: how many CSS pixels the document is wider than the viewport (0: none). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/**
 * The elements wider than the viewport's right edge, for a failure message: tag, test id or class,
 * and their right edge in pixels. Elements inside a scrolling box are skipped (they scroll there).
 */
export function overflowCulprits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const rect = el.getBoundingClientRect();
      if (rect.right <= width + 0.5) continue;
      let parent = el.parentElement;
      let clipped = false;
      while (parent && parent !== document.body) {
        const style = getComputedStyle(parent);
        if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) {
          clipped = true;
          break;
        }
        parent = parent.parentElement;
      }
      if (clipped) continue;
      const name = el.dataset.testid ?? el.getAttribute('aria-label') ?? el.className.toString().slice(0, 60);
      out.push(`${el.tagName.toLowerCase()}[${name}] right=${Math.round(rect.right)}`);
      if (out.length >= 8) break;
    }
    return out;
  });
}

/**
 * Runs axe-core in the page (its source evaluated in the page, so the app's Content Security Policy
 * does not stand in the way) and answers the `serious` and `critical` violations, with the pointer
 * parked in the page's top-left corner.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  // The pointer left over a button (where the last click was) would judge its hover colours instead.
  await page.mouse.move(0, 0);
  // And judged once settled: a button still fading between two colours (a dialog just opened, the
  // pointer just left) measured 4.31:1 now and then under load.
  // (Finite ones only, and at most 2 s: a spinner turns forever.)
  await page.evaluate(() => {
    const ending = document
      .getAnimations()
      .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
      .map((animation) => animation.finished.catch(() => undefined));
    return Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const w = window as unknown as { axe: typeof axe };
    const result = await w.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`),
      }));
  });
}

/**
 * True when the focused element is `locator` and shows a focus ring: an outline or a box-shadow that
 * is not 'none' (Chakra's focus-visible ring is an outline).
 */
export async function hasVisibleFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    if (document.activeElement !== el) return false;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return outline || style.boxShadow !== 'none';
  });
}

/**
 * Presses Tab until the focused element matches `selector` (at most `limit` presses), checking that
 * every element focused on the way shows a focus ring (`hasVisibleFocus`). Answers the focused
 * element's description for each stop without one (empty: every stop had one); throws when `selector`
 * is never reached.
 */
export async function tabTo(page: Page, selector: string, limit = 60): Promise<string[]> {
  const withoutRing: string[] = [];
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    const focused = page.locator('*:focus');
    if (!(await hasVisibleFocus(focused))) {
      withoutRing.push(
        await focused.evaluate((el) => `${el.tagName.toLowerCase()} "${el.textContent?.trim()}"`),
      );
    }
    if (await focused.evaluate((el, target) => el.matches(target), selector)) return withoutRing;
  }
  throw new Error(`Tab did not reach ${selector} in ${limit} presses`);
}
