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
 * Waits until no finite CSS transition or animation runs in the page (endless ones, such as a
 * spinner's, are not waited for). Polled each frame until Playwright's own timeout: no fixed pause,
 * which a loaded machine would outlast with a colour still fading.
 */
async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * Runs axe-core in the page (its source evaluated in the page once per document, so the app's Content
 * Security Policy does not stand in the way, and kept there across the app's own navigations) and
 * answers the `serious` and `critical` violations, with the pointer parked in the page's top-left corner
 * and no finite animation running.
 *
 * Only the rules that can report `serious` or `critical` run: in axe-core 4 every rule carries one
 * impact that its findings take whatever check failed (`finalizeRuleResult` in axe-core's source), so a
 * rule of impact `minor` or `moderate` (the landmark and heading-order rules, `region`) can never yield
 * a finding this answers, and running it only costs time. The set is read from the loaded axe-core, so
 * a newer one's rules are judged the same way; a rule without a known impact runs.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  // The pointer left over a button (where the last click was) would judge its hover colours instead.
  await page.mouse.move(0, 0);
  // And judged once settled: a button still fading between two colours (a dialog just opened, the
  // pointer just left) measured 4.31:1 now and then under load.
  await animationsDone(page);
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: typeof axe & { _audit: { rules: { id: string; impact?: string }[] } };
    };
    const rules: Record<string, { enabled: boolean }> = {};
    for (const rule of w.axe._audit.rules) {
      if (rule.impact === 'minor' || rule.impact === 'moderate') rules[rule.id] = { enabled: false };
    }
    const result = await w.axe.run(document, { resultTypes: ['violations'], rules });
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

/**
 * Moves the starting point of sequential focus navigation to the top of the page, as a fresh load
 * leaves it: the next Tab focuses the page's first focusable element. A focused element that is removed
 * leaves the starting point where it stood (the HTML standard's "sequential focus navigation starting
 * point"), here at the start of the body; in Chromium the Tab stops from there on /teams were the same
 * as after a reload, at both widths. Cheaper than a reload, which loads and draws the app again.
 */
export async function focusFromTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const start = document.createElement('div');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });
}
