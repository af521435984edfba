// Debian's chromium (scripts/install-chromium.sh) driven by playwright-core, for the console's browser tests; the
// screenshots they take go to test-artifacts/console/ (gitignored), whose path the test prints.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOTS = resolve('test-artifacts', 'console');

function chromiumPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
  if (found === '') throw new Error('chromium is not installed: run scripts/install-chromium.sh');
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  // Root (CI, containers) cannot use chromium's sandbox.
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page whose script errors fail the test that reads `errors`. */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, errors };
}

/** Saves a screenshot of the page as <name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The texts of a table's body cells, row by row. */
export async function tableRows(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} > tbody > tr`, (rows) => rows.map((row) => [...row.children].map((cell) => (cell as unknown as { innerText: string }).innerText.trim())));
}
