import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * What axe-core finds wrong on the page as it stands, one line per rule with
 * the elements it names; empty when nothing. The page's context must bypass
 * CSP (`bypassCSP: true`): the pages under test allow no script but their own.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}
