/**
 * The journeys' `test`: Playwright's, with every exchange of the test's browser context and API
 * request context recorded for the secret scan (recorder.ts). Specs import `test` and `expect` from
 * here. Contexts a journey opens itself (a second person) are not recorded: the secrets the scan
 * searches for are those of the main contexts, which every kind appears in.
 */
import { test as base } from '@playwright/test';
import { recordApi, recordContext } from './recorder';

export * from '@playwright/test';

export const test = base.extend({
  context: async ({ context }, use) => {
    recordContext(context);
    await use(context);
  },
  request: async ({ request }, use) => {
    await use(recordApi(request));
  },
});
