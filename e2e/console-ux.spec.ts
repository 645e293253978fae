import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { createPasswordAccount, PASSWORD, uniqueEmail } from './support/journeys';
import { mailCount, waitForMail } from './support/mail-sink';
import { E2E_BASE_URL } from './support/ports';
import { widerThan } from './support/site-journeys';

/**
 * The console as a new organization administrator meets it: roles named rather than shown by id, a
 * suspension that asks first and keeps the suspended member in view, errors that go once a later
 * change succeeds, roles that fit the screen, policies in words and units, and approvals requested
 * from the refused change and applied from the inbox. Each journey sets up its own organization
 * through the API and then works only through the page.
 */

const HEADERS = { origin: E2E_BASE_URL };

interface Person {
  email: string;
  context: BrowserContext;
  page: Page;
}

/** A new account, signed in with its password in a browser context of its own (the sign-in counts as a recent step-up). */
async function signedIn(browser: Browser, name: string): Promise<Person> {
  const email = uniqueEmail(name);
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: { width: 1280, height: 900 } });
  await createPasswordAccount(context.request, email);
  expect((await context.request.post('/api/auth/signin/password', { headers: HEADERS, data: { email, password: PASSWORD } })).status()).toBe(201);
  return { email, context, page: await context.newPage() };
}

/** A JSON call of the signed-in person, with the CSRF token their session carries. */
async function call(request: APIRequestContext, method: 'POST' | 'PATCH', path: string, data: unknown): Promise<Record<string, unknown>> {
  const csrf = ((await (await request.get('/api/auth/session')).json()) as { csrf_token: string }).csrf_token;
  const response = await request.fetch(path, { method, headers: { ...HEADERS, 'x-csrf-token': csrf }, data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** `person` joins the organization with `role` through a mailed invitation; answers their membership id. */
async function join(owner: Person, organizationId: string, person: Person, role: string): Promise<string> {
  const before = mailCount(person.email);
  await call(owner.context.request, 'POST', `/api/organizations/${organizationId}/invitations`, { email: person.email, role });
  const { text } = await waitForMail(person.email, before);
  const token = new URL(/https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_%-]+/.exec(text)![0]).searchParams.get('token');
  const accepted = await call(person.context.request, 'POST', '/api/organizations/invitations/accept', { token });
  return accepted.membership_id as string;
}

async function organizationOf(owner: Person, name: string): Promise<string> {
  return (await call(owner.context.request, 'POST', '/api/organizations', { name })).id as string;
}

const consoleAt = (organizationId: string, section: string) => `/console?organization=${organizationId}&section=${section}`;
const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) }).last();
const status = (page: Page, heading: string) => section(page, heading).getByRole('status').last();
const memberRow = (page: Page, email: string) => section(page, 'Members').getByRole('listitem').filter({ hasText: email });

async function open(page: Page, organizationId: string, name: string, heading: string) {
  await page.goto(consoleAt(organizationId, name));
  await expect(page.getByRole('heading', { name: heading, level: 2, exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** Nothing sticks out sideways: the page, and the section within its column. */
async function expectNoSidewaysScroll(page: Page, heading: string, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${heading} at ${width} px: ${await widerThan(page, width)}`).toBeLessThanOrEqual(
    width,
  );
  const { scrollWidth, clientWidth, wide } = await section(page, heading).evaluate((element) => {
    const right = element.getBoundingClientRect().right + 0.5;
    const past = [...element.querySelectorAll('*')].filter((inner) => inner.getBoundingClientRect().right > right);
    const outermost = past.filter((inner) => !past.includes(inner.parentElement!)).slice(0, 5);
    return {
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      wide: outermost.map((inner) => `${inner.tagName.toLowerCase()}.${inner.className}`).join(', '),
    };
  });
  expect(scrollWidth, `${heading}: wider than its column: ${wide}`).toBeLessThanOrEqual(clientWidth);
}

/** Screenshots at 1280 and 390 px (for looking at, not committed), each after the layout check and axe. */
async function lookAt(page: Page, heading: string, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, heading, width);
    await page.screenshot({ path: `test-results/screenshots/console-ux-${name}-${width}.png`, fullPage: true });
    await expectAccessible(page, `console ${name} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Whether `locator` lies within the viewport's width (reachable without scrolling sideways). */
async function withinWidth(locator: Locator, width: number) {
  const box = await locator.boundingBox();
  expect(box, 'rendered').not.toBeNull();
  expect(box!.x, 'left edge').toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, 'right edge').toBeLessThanOrEqual(width);
}

test.describe('the console for a new organization administrator', () => {
  // Each journey sets up accounts and runs axe in both colour schemes at two widths: minutes on a busy machine.
  test.describe.configure({ timeout: 180_000 });

  test('Settings names a custom role instead of showing its id', async ({ browser }) => {
    const owner = await signedIn(browser, 'settings-owner');
    const member = await signedIn(browser, 'settings-member');
    const organizationId = await organizationOf(owner, 'Named Roles');
    const role = await call(owner.context.request, 'POST', `/api/organizations/${organizationId}/roles`, {
      name: 'Auditor',
      permissions: ['read', 'audit.read'],
    });
    await join(owner, organizationId, member, role.id as string);

    await open(member.page, organizationId, 'settings', 'Settings');
    const yourRole = section(member.page, 'Settings').locator('dt', { hasText: 'Your role' }).locator('xpath=following-sibling::dd');
    await expect(yourRole).toHaveText('Auditor');
    await expect(section(member.page, 'Settings')).not.toContainText(role.id as string);
    await lookAt(member.page, 'Settings', 'settings');
  });

  test('Members: suspending asks first, the suspended member stays listed, and a later success clears an old error', async ({ browser }) => {
    const owner = await signedIn(browser, 'members-owner');
    const colleague = await signedIn(browser, 'members-colleague');
    const organizationId = await organizationOf(owner, 'Careful Changes');
    await join(owner, organizationId, colleague, 'member');
    const page = owner.page;
    await open(page, organizationId, 'members', 'Members');

    // The filter's first choice is what is shown: active and suspended members.
    const filter = section(page, 'Members').getByLabel('Show');
    await expect(filter.locator('option:checked')).toHaveText('Active and suspended');

    const row = memberRow(page, colleague.email);
    const suspend = row.getByRole('button', { name: 'Suspend', exact: true });
    await suspend.click();
    const question = row.getByRole('group', { name: `Suspend ${colleague.email}?` });
    await expect(question).toBeFocused();
    await expect(question).toContainText('They lose access to the organization at once');
    await lookAt(page, 'Members', 'members-confirm-suspend');
    // Backing out changes nothing and returns to the button.
    await question.getByRole('button', { name: 'Keep it' }).click();
    await expect(question).toHaveCount(0);
    await expect(suspend).toBeFocused();
    await expect(row).toContainText('member · Active');

    await suspend.click();
    await row.getByRole('button', { name: 'Suspend member' }).click();
    await expect(status(page, 'Members')).toHaveText(`${colleague.email} is suspended.`);
    await expect(memberRow(page, colleague.email)).toContainText('member · Suspended');

    // The last owner cannot suspend themselves: the refusal shows on their row...
    const mine = memberRow(page, owner.email);
    await mine.getByRole('button', { name: 'Suspend', exact: true }).click();
    await mine.getByRole('button', { name: 'Suspend member' }).click();
    await expect(mine.getByRole('alert')).toHaveText('The organization must keep at least one active owner: make someone else an owner first.');
    // ... until a later change succeeds, elsewhere in the section.
    await memberRow(page, colleague.email).getByRole('button', { name: 'Reactivate' }).click();
    await expect(status(page, 'Members')).toHaveText(`${colleague.email} is active again.`);
    await expect(section(page, 'Members').getByRole('alert')).toHaveCount(0);
    await lookAt(page, 'Members', 'members');
  });

  test('Roles: every permission and every custom role action is reachable at 1280 px and usable at 390 px', async ({ browser }) => {
    const owner = await signedIn(browser, 'roles-owner');
    const organizationId = await organizationOf(owner, 'Many Roles');
    for (const name of ['Support', 'Billing and invoices reviewer']) {
      await call(owner.context.request, 'POST', `/api/organizations/${organizationId}/roles`, { name, permissions: ['read'] });
    }
    const page = owner.page;
    await open(page, organizationId, 'roles', 'Roles');

    // The built-in roles read as a table: a row per permission, a column per role.
    const builtIn = section(page, 'Roles').getByRole('table', { name: 'Permissions of the built-in roles' });
    await expect(builtIn.getByRole('row')).toHaveCount(1 + 4 + 15);
    await expect(builtIn.getByRole('row', { name: /audit\.read/ }).getByRole('cell')).toHaveText(['Yes', 'Yes', 'Yes'].map((text) => new RegExp(text)));

    await expectNoSidewaysScroll(page, 'Roles', 1280);
    for (const name of ['Support', 'Billing and invoices reviewer']) {
      const card = section(page, 'Roles').getByRole('listitem', { name });
      await expect(card.getByRole('checkbox')).toHaveCount(15);
      for (const button of [`Save permissions of ${name}`, `Edit details of ${name}`, `Delete ${name}`]) {
        await withinWidth(card.getByRole('button', { name: button }), 1280);
      }
      for (const box of await card.getByRole('checkbox').all()) await withinWidth(box, 1280);
    }

    // On a phone: a permission ticked and saved, every box within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page, 'Roles', 390);
    const support = section(page, 'Roles').getByRole('listitem', { name: 'Support' });
    for (const box of await support.getByRole('checkbox').all()) await withinWidth(box, 390);
    const save = support.getByRole('button', { name: 'Save permissions of Support' });
    await expect(save).toBeDisabled();
    await support
      .getByRole('group', { name: 'People and access' })
      .getByRole('checkbox', { name: /^groups\.manage/ })
      .check();
    await withinWidth(save, 390);
    await save.click();
    await expect(status(page, 'Roles')).toHaveText('Permissions of “Support” saved.');
    await expect(
      section(page, 'Roles')
        .getByRole('listitem', { name: 'Support' })
        .getByRole('checkbox', { name: /^groups\.manage/ }),
    ).toBeChecked();
    await page.setViewportSize({ width: 1280, height: 900 });
    await lookAt(page, 'Roles', 'roles');
  });

  test('Policies: named and explained, durations in units with a number and unit picker', async ({ browser }) => {
    const owner = await signedIn(browser, 'policies-owner');
    const organizationId = await organizationOf(owner, 'Plain Policies');
    const page = owner.page;
    await open(page, organizationId, 'policies', 'Policies');

    const maxAge = section(page, 'Policies')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Maximum session age/ }) });
    await expect(maxAge).toContainText('Now: 7 days · default: 7 days');
    await expect(maxAge).toContainText('Older sessions must sign in again');
    await expect(maxAge.locator('code')).toHaveText('session.max_age_seconds');
    await expect(section(page, 'Policies')).not.toContainText('604800');

    const form = page.getByRole('form', { name: 'Change Maximum session age' });
    await expect(form.getByLabel('Amount')).toHaveValue('7');
    await expect(form.getByLabel('Unit').locator('option:checked')).toHaveText('days');
    // Below the catalogue's minimum: said in units, nothing sent.
    await form.getByLabel('Amount').fill('3');
    await form.getByLabel('Unit').selectOption({ label: 'minutes' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Choose between 5 minutes and 7 days.')).toBeVisible();
    await expect(form.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Amount').fill('36');
    await form.getByLabel('Unit').selectOption({ label: 'hours' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(status(page, 'Policies')).toHaveText('Maximum session age is now 1 day 12 hours.');
    const saved = page.getByRole('form', { name: 'Change Maximum session age' });
    await expect(saved.getByLabel('Amount')).toHaveValue('36');
    await expect(saved.getByLabel('Unit').locator('option:checked')).toHaveText('hours');

    const methods = page.getByRole('form', { name: 'Change Allowed sign-in methods' });
    await expect(methods.getByRole('checkbox', { name: /^E-mail code/ })).toBeChecked();
    await lookAt(page, 'Policies', 'policies');
  });

  test('Approvals: requested from the refused change, applied from the inbox in one click', async ({ browser }) => {
    test.setTimeout(360_000);
    const owner = await signedIn(browser, 'approvals-owner');
    const approver = await signedIn(browser, 'approvals-approver');
    const leaving = await signedIn(browser, 'approvals-leaving');
    const organizationId = await organizationOf(owner, 'Four Eyes');
    await join(owner, organizationId, approver, 'admin');
    await join(owner, organizationId, leaving, 'member');
    await call(owner.context.request, 'POST', `/api/organizations/${organizationId}/policies`, {
      policy_key: 'approvals.required_for',
      value: ['members.remove', 'policies.delete', 'delegated_admins.create'],
    });
    const page = owner.page;

    /** The approver decides the request for `change` in their inbox. */
    async function approve(change: string) {
      await open(approver.page, organizationId, 'approvals', 'Approvals');
      const request = section(approver.page, 'Approvals').getByRole('listitem').filter({ hasText: change });
      await request.getByRole('button', { name: 'Approve' }).click();
      await expect(status(approver.page, 'Approvals')).toHaveText(`The request “${change}” is approved.`);
    }

    /** The owner applies the approved request for `change` from the inbox. */
    async function apply(change: string, done: string) {
      await open(page, organizationId, 'approvals', 'Approvals');
      const ready = section(page, 'Approvals').getByRole('listitem').filter({ hasText: change });
      await ready.getByRole('button', { name: `Apply: ${change}` }).click();
      await expect(status(page, 'Approvals')).toHaveText(`Applied: ${done}`);
      await expect(section(page, 'Approvals').getByRole('listitem').filter({ hasText: change })).toHaveCount(0);
    }

    await test.step('a delegated grant: refused, requested in place, approved, applied', async () => {
      await open(page, organizationId, 'delegations', 'Delegated admins');
      const grant = page.getByRole('form', { name: 'Grant permissions' });
      await grant.getByLabel('Member', { exact: true }).selectOption({ label: leaving.email });
      await grant.getByRole('checkbox', { name: /^groups\.manage/ }).check();
      await grant.getByRole('button', { name: 'Grant' }).click();
      await expect(grant.getByRole('alert')).toContainText('requires an approved request from another administrator');
      await grant.getByRole('button', { name: 'Request approval' }).click();
      await expect(grant.getByRole('status')).toContainText('Approval requested. Once another administrator approves it, apply it from Approvals');
      const change = `Grant ${leaving.email} groups.manage without expiry`;
      await approve(change);
      await apply(change, `${leaving.email} now holds groups.manage.`);
    });

    await test.step('removing a member: the request carries a reason; the inbox shows it and applies the removal', async () => {
      await open(page, organizationId, 'members', 'Members');
      const row = memberRow(page, leaving.email);
      await row.getByRole('button', { name: 'Remove', exact: true }).click();
      await row.getByRole('button', { name: 'Remove member' }).click();
      await expect(row.getByRole('alert')).toContainText('requires an approved request from another administrator');
      const offer = row.getByRole('group', { name: 'Request approval for this change' });
      await offer.getByLabel('Reason for the approver (optional)').fill('Left the company');
      await lookAt(page, 'Members', 'members-approval-offer');
      await offer.getByRole('button', { name: 'Request approval' }).click();
      await expect(row.getByRole('status')).toBeFocused();
      await expect(row.getByRole('alert')).toHaveCount(0);
      await lookAt(page, 'Members', 'members-approval-requested');

      const change = `Remove ${leaving.email} from the organization`;
      await open(page, organizationId, 'approvals', 'Approvals');
      const mine = section(page, 'Approvals').getByRole('listitem').filter({ hasText: change });
      await expect(mine).toContainText('“Left the company”');
      await expect(mine).toContainText('You requested this change, so another administrator must approve or reject it.');
      await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
      await approve(change);
      await open(page, organizationId, 'approvals', 'Approvals');
      await expect(section(page, 'Approvals').getByRole('button', { name: `Apply: ${change}` })).toBeVisible();
      await lookAt(page, 'Approvals', 'approvals-ready');
      await apply(change, `${leaving.email} was removed from the organization.`);
      await open(page, organizationId, 'members', 'Members');
      await expect(memberRow(page, leaving.email)).toHaveCount(0);
    });

    await test.step('resetting a policy: applied from the inbox, which says what applying covers', async () => {
      await open(page, organizationId, 'policies', 'Policies');
      const form = page.getByRole('form', { name: 'Change Idle timeout' });
      await form.getByLabel('Amount').fill('2');
      await form.getByLabel('Unit').selectOption({ label: 'hours' });
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(status(page, 'Policies')).toHaveText('Idle timeout is now 2 hours.');
      const tightened = page.getByRole('form', { name: 'Change Idle timeout' });
      await tightened.getByRole('button', { name: 'Reset to default' }).click();
      await expect(tightened.getByRole('alert')).toContainText('requires an approved request');
      await tightened.getByRole('button', { name: 'Request approval' }).click();
      await expect(tightened.getByRole('status')).toContainText('Approval requested.');

      const change = 'Reset or loosen the policy “Idle timeout”';
      await approve(change);
      await open(page, organizationId, 'approvals', 'Approvals');
      await expect(section(page, 'Approvals').getByRole('listitem').filter({ hasText: change })).toContainText(
        'Apply resets the policy to its default. To loosen it to another value instead, save that value in Policies',
      );
      await apply(change, 'Idle timeout is back to its default.');
      await open(page, organizationId, 'policies', 'Policies');
      await expect(
        section(page, 'Policies')
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: /^Idle timeout/ }) }),
      ).toContainText('Now: 1 day · default: 1 day');
    });

    await test.step('the hand-written request stays as a folded fallback', async () => {
      await open(page, organizationId, 'approvals', 'Approvals');
      const fallback = section(page, 'Approvals').locator('details', { hasText: 'Request an approval by hand (advanced)' });
      await expect(fallback.getByRole('form', { name: 'Request an approval by hand' })).toBeHidden();
      await fallback.locator('summary').click();
      await expect(fallback.getByRole('form', { name: 'Request an approval by hand' })).toBeVisible();
      await lookAt(page, 'Approvals', 'approvals-fallback');
    });
  });
});
