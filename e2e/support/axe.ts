/**
 * The accessibility check of the journeys: axe-core over the whole page as it is right now, failing
 * on every violation of any impact. The tags are WCAG 2.0/2.1 A and AA plus axe's best practices
 * (landmarks, one h1, heading order, ...). No rule is switched off: a page that needs an exception
 * has to argue for it here, next to the rule's id.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

type Scheme = 'light' | 'dark';

/**
 * Runs axe on `page` in each colour scheme (the stylesheet has a dark palette, and contrast must hold
 * in both). `label` names the page state in the failure message.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname, schemes: Scheme[] = ['light', 'dark']): Promise<void> {
  for (const colorScheme of schemes) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    const found = violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map(
        (n) =>
          `${n.target.join(' ')}: ${(n.failureSummary ?? '')
            .split('\n')
            .slice(1)
            .map((line) => line.trim())
            .join('; ')}`,
      ),
    }));
    expect(found, `axe-core violations on ${label} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}
