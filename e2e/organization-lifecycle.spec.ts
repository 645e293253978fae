import { expect, test, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { createPasswordAccount, PASSWORD, uniqueEmail } from './support/journeys';
import { mailCount, waitForMail } from './support/mail-sink';
import { E2E_BASE_URL } from './support/ports';
import { widerThan } from './support/site-journeys';

/**
 * A new organization's life through the pages, as a new admin meets it: the invitation mail says who
 * invites to what; signing up from its link needs no code (the link proved the mailbox); the
 * invitation page then says what joining did; the audit log and the portal's activity name what they
 * speak of and what changed; a member leaves, the last owner cannot, and the owner deletes the
 * organization by typing its name. Screenshots at 1280 and 390 px of each new page state.
 */

const ORGANIZATION = 'Lifecycle Works';

const nav = (page: Page) => page.getByRole('navigation', { name: /sections$/ });
const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) }).last();

async function open(page: Page, label: string) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
}

/** For looking at (not committed): the page at 1280 and at 390 px, which must not scroll sideways. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Wide tables scroll inside their own region; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px: ${await widerThan(page, width)}`).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function signIn(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/session')).json()) as { csrf_token: string }).csrf_token;
}

test.describe('an organization from invitation to deletion', () => {
  test('invite, sign up without a code, join, read the audit log, leave, and delete', async ({ page, browser }) => {
    test.setTimeout(180_000);
    const ownerEmail = uniqueEmail('lifecycle.owner');
    const inviteeEmail = uniqueEmail('lifecycle.invitee');
    await page.setViewportSize({ width: 1280, height: 900 });

    await test.step('the owner, with a display name, creates the organization and invites someone', async () => {
      await createPasswordAccount(page.request, ownerEmail);
      await signIn(page, ownerEmail);
      const named = await page.request.patch('/api/auth/profile', {
        headers: { origin: E2E_BASE_URL, 'x-csrf-token': await csrfOf(page) },
        data: { display_name: 'Olga Owner' },
      });
      expect(named.status()).toBe(200);
      await page.goto('/console');
      await page.getByLabel('Organization name').fill(ORGANIZATION);
      await page.getByRole('button', { name: 'Create organization' }).click();
      await expect(nav(page)).toBeVisible();
      await open(page, 'Invitations');
      const form = page.getByRole('form', { name: 'Invite someone' });
      await form.getByLabel('E-mail address').fill(inviteeEmail);
      await form.getByRole('button', { name: 'Send invitation' }).click();
      await expect(section(page, 'Invitations').getByRole('status').last()).toHaveText(`Invitation sent to ${inviteeEmail}.`);
    });

    const { text: mail } = await waitForMail(inviteeEmail);
    await test.step('the mail says who invites, to what, with which role', async () => {
      expect(mail).toContain(`Olga Owner (${ownerEmail}) invited you to join the organization "${ORGANIZATION}"`);
      expect(mail).toContain('as member.');
    });
    const link = /https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_%-]+/.exec(mail)?.[0];
    expect(link).toBeTruthy();

    const invitee = await (await browser.newContext({ baseURL: E2E_BASE_URL })).newPage();
    await invitee.setViewportSize({ width: 1280, height: 900 });
    await test.step('signing up from the link shows the invited address and mails no code', async () => {
      await invitee.goto(link!);
      await expect(invitee.getByRole('heading', { name: `Join ${ORGANIZATION} as member` })).toBeVisible();
      await invitee.getByRole('link', { name: 'Create an account' }).click();
      const mails = mailCount(inviteeEmail);
      await expect(invitee.getByText('the invitation link confirms your address: no code needed.', { exact: false })).toBeVisible();
      await expect(invitee.getByText(inviteeEmail, { exact: true })).toBeVisible();
      await expect(invitee.getByLabel('Verification code')).toHaveCount(0);
      await expectAccessible(invitee, '/sign-up (from an invitation)');
      await shoot(invitee, 'lifecycle-sign-up-invited');
      await invitee.getByLabel('New password').fill(PASSWORD);
      await invitee.getByRole('button', { name: 'Create account with password' }).click();
      await expect(invitee.getByRole('button', { name: `Join as ${inviteeEmail}` })).toBeVisible();
      expect(mailCount(inviteeEmail), 'no code mail').toBe(mails);
    });

    await test.step('after joining, the page says what happened and leads to the console', async () => {
      await invitee.getByRole('button', { name: `Join as ${inviteeEmail}` }).click();
      await expect(invitee.getByRole('heading', { name: `You joined ${ORGANIZATION}`, level: 1 })).toBeFocused();
      await expect(invitee.getByText(`You are now a member of ${ORGANIZATION} with the role member.`)).toBeVisible();
      await expect(invitee.getByText('This invitation expires on')).toHaveCount(0);
      await expectAccessible(invitee, '/invitations/accept (joined)');
      await shoot(invitee, 'lifecycle-joined');
      await invitee.getByRole('link', { name: `Open ${ORGANIZATION} in the console` }).click();
      await expect(nav(invitee)).toBeVisible();
    });

    await test.step('the audit log names the member and says role: member → admin', async () => {
      await page.reload();
      await open(page, 'Members');
      const row = section(page, 'Members').getByRole('listitem').filter({ hasText: inviteeEmail });
      await row.getByLabel(`Role of ${inviteeEmail}`).selectOption({ label: 'admin' });
      await row.getByRole('button', { name: 'Change role' }).click();
      await expect(section(page, 'Members').getByRole('status').last()).toHaveText(`${inviteeEmail} is now admin.`);

      await open(page, 'Audit log');
      const rows = page.getByRole('region', { name: 'Audit events' }).locator('tbody tr');
      const updated = rows.filter({ hasText: 'member.updated' });
      await expect(updated).toHaveCount(1);
      await expect(updated.locator('td[data-label="Actor"]')).toHaveText(ownerEmail);
      await expect(updated.locator('td[data-label="Subject"] .auth-email')).toHaveText(inviteeEmail);
      await expect(updated.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveText(['role: member → admin']);
      const invited = rows.filter({ hasText: 'invitation.created' });
      await expect(invited.locator('td[data-label="Subject"]')).toHaveText(`invitation ${inviteeEmail}`);
      const created = rows.filter({ hasText: 'organization.created' });
      await expect(created.locator('td[data-label="Subject"]')).toHaveText(`organization ${ORGANIZATION}`);
      await expectAccessible(page, '/console audit log (names and changes)', ['light']);
      await shoot(page, 'lifecycle-audit-log');
    });

    await test.step("the portal's activity names the API key", async () => {
      const key = await page.request.post('/api/developer/api-keys', {
        headers: { origin: E2E_BASE_URL, 'x-csrf-token': await csrfOf(page) },
        data: { name: 'Deploy key', scopes: ['identity.developer.read'] },
      });
      expect(key.status()).toBe(201);
      await page.goto('/portal');
      await page.getByRole('navigation', { name: 'Portal sections' }).getByRole('link', { name: 'Activity', exact: true }).click();
      const row = page.getByRole('region', { name: 'Activity events' }).locator('tbody tr').filter({ hasText: 'api_key.created' });
      await expect(row.locator('td[data-label="Subject"]')).toHaveText('api key Deploy key');
      await expectAccessible(page, '/portal activity (names)', ['light']);
      await shoot(page, 'lifecycle-portal-activity');
    });

    await test.step('the member leaves; the last owner cannot', async () => {
      await open(invitee, 'Settings');
      await invitee.getByRole('button', { name: 'Leave organization' }).click();
      await invitee.getByRole('button', { name: `Yes, leave ${ORGANIZATION}` }).click();
      await expect(invitee.getByRole('heading', { name: `You left ${ORGANIZATION}` })).toBeFocused();
      await expectAccessible(invitee, '/console settings (left)', ['light']);
      await shoot(invitee, 'lifecycle-left');

      await page.goto('/console');
      await open(page, 'Settings');
      await page.getByRole('button', { name: 'Leave organization' }).click();
      await page.getByRole('button', { name: `Yes, leave ${ORGANIZATION}` }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'You are the last active owner of this organization' })).toBeVisible();
    });

    await test.step('the owner deletes the organization by typing its name', async () => {
      const form = page.getByRole('form', { name: 'Delete the organization' });
      await expect(form).toContainText('ends every application authorization bound to it');
      await form.getByLabel('Organization name').fill('Lifecycle');
      await form.getByRole('button', { name: 'Delete organization' }).click();
      await expect(form.getByLabel('Organization name')).toHaveAttribute('aria-invalid', 'true');
      await expect(form).toContainText(`Type the organization’s name exactly as it is: ${ORGANIZATION}.`);
      await expectAccessible(page, '/console settings (danger zone)', ['light', 'dark']);
      await shoot(page, 'lifecycle-delete-confirm');

      await form.getByLabel('Organization name').fill(ORGANIZATION);
      await form.getByRole('button', { name: 'Delete organization' }).click();
      await expect(page.getByRole('heading', { name: `${ORGANIZATION} was deleted` })).toBeFocused();
      // The invitee had left and the invitation was used: only the owner was still a member.
      await expect(
        page.getByText('1 membership ended (yours included), 0 pending invitations stopped working and 0 application authorizations ended.'),
      ).toBeVisible();
      await shoot(page, 'lifecycle-deleted');
      await page.getByRole('link', { name: 'Go to your organizations' }).click();
      await expect(page.getByRole('heading', { name: 'You are not in any organization yet' })).toBeVisible();
    });
  });
});
