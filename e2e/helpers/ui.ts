import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { ROOT, type RunningServer } from './airlock-server.js';

/** Where the e2e run writes the README's screenshots (issue 8 "Must hold"). */
export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

/**
 * Opens the window on `path` (e.g. '/tools') with the control token, and
 * waits until the app is connected. A fresh navigation each time: the token
 * goes through the address once and is then kept for the tab.
 */
export async function openPage(page: Page, server: RunningServer, path: string): Promise<void> {
  await page.goto(server.controlUrl);
  await expect(page.getByTestId('run-state')).toHaveText('Running');
  await page.evaluate(`location.hash = ${JSON.stringify(path)}`);
  await expect(page.locator('main h1').first()).toBeVisible();
}

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Serious and critical WCAG 2.x A/AA violations on the current page (empty = pass). */
export async function seriousViolations(page: Page): Promise<AxeProblem[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  // An empty result must mean "checked and clean", not "nothing was checked".
  if (result.passes.length === 0) throw new Error('axe checked nothing on this page');
  if (process.env['AXE_VERBOSE'])
    for (const v of result.violations)
      console.log(
        `[axe] ${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
      );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}

/**
 * Writes docs/screenshots/<name>.png: the whole page, animations stopped,
 * caret hidden. The window is grown to the page's height first, so the
 * sticky status bar sits at the bottom as in a real window (a full-page
 * capture would leave it wherever the viewport ended).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1100, height: 800 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    animations: 'disabled',
    caret: 'hide',
  });
  if (height > size.height) await page.setViewportSize(size);
}
