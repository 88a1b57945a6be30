import path from 'node:path';

import type { Page } from 'playwright-core';

import { REPO_ROOT } from './paths.ts';

const AXE_SCRIPT = path.join(REPO_ROOT, 'node_modules/axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (WCAG 2.x A and AA rules plus best practices) and returns the serious
 * and critical violations, each with the elements it found, so a failure names what to fix.
 */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ path: AXE_SCRIPT });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: AxeApi }).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));

    interface AxeApi {
      run(
        context: Document,
        options: unknown,
      ): Promise<{
        violations: {
          id: string;
          impact?: string | null;
          help: string;
          nodes: { target: string[] }[];
        }[];
      }>;
    }
  });
}
