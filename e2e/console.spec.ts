import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { createPasswordAccount, PASSWORD, signInWithCode, signUpWithPasskey, uniqueEmail } from './support/journeys';
import { mailCount, waitForCode, waitForMail } from './support/mail-sink';
import { E2E_BASE_URL } from './support/ports';
import { tabTo, widerThan } from './support/site-journeys';

/**
 * The organization console's journeys, through the pages: an owner creates an organization, invites
 * a colleague by e-mail (the link comes from the real mail), gives them a custom role and a group,
 * delegates members.manage to them, puts member removal behind an approval that only another admin
 * may give, and reads it all in the audit log; then the console's sections on a phone, by keyboard
 * and under axe. One story in one test: every step needs the ones before it.
 */

const SECTION_LABELS = [
  'Members',
  'Invitations',
  'Groups',
  'Roles',
  'Policies',
  'Delegated admins',
  'Approvals',
  'Action catalog',
  'Domains',
  'Single sign-on',
  'Audit log',
  'Settings',
];

const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) }).last();
const nav = (page: Page) => page.getByRole('navigation', { name: /sections$/ });
const status = (page: Page, heading: string) => section(page, heading).getByRole('status').last();

async function open(page: Page, label: string) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

/** A fresh browser signed in with an e-mail code: its session has no step-up yet. */
async function signedInWithCode(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: E2E_BASE_URL })).newPage();
  await page.goto('/sign-in');
  const before = mailCount(email);
  await page.getByLabel('E-mail address for a code').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await page.getByLabel('Code', { exact: true }).fill(await waitForCode(email, before));
  await page.getByRole('button', { name: 'Sign in with code' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
  return page;
}

async function invitationLink(email: string, before: number): Promise<string> {
  const { text } = await waitForMail(email, before);
  const link = /https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_%-]+/.exec(text)?.[0];
  if (!link) throw new Error(`No invitation link in the mail to ${email}`);
  return link;
}

async function invite(page: Page, email: string): Promise<string> {
  await open(page, 'Invitations');
  const before = mailCount(email);
  const form = page.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('E-mail address').fill(email);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(status(page, 'Invitations')).toHaveText(`Invitation sent to ${email}.`);
  return invitationLink(email, before);
}

/** For looking at, not committed. */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

const memberRow = (page: Page, email: string) => section(page, 'Members').getByRole('listitem').filter({ hasText: email });

test.describe('the organization console', () => {
  test('an owner and a colleague run an organization from the console', async ({ page, browser }) => {
    // About a minute on a quiet machine; several times that when the two cores are shared.
    test.setTimeout(300_000);
    const ownerEmail = uniqueEmail('owner');
    const colleagueEmail = uniqueEmail('colleague');
    // A long address: it must wrap inside its card at 390 px, not widen the page.
    const thirdEmail = uniqueEmail('third.member.with.a.rather.long.address');

    await test.step('the owner creates an organization from the account page and the empty state', async () => {
      // Signed out, the console and a link without its token only explain.
      await page.goto('/console');
      await expect(page.getByRole('link', { name: 'Sign in' }).last()).toHaveAttribute('href', '/sign-in?return_to=%2Fconsole');
      await expectAccessible(page, '/console (signed out)', ['light']);
      await page.goto('/invitations/accept');
      await expect(page.getByText('This invitation link is incomplete.')).toBeVisible();
      await expectAccessible(page, '/invitations/accept (no token)', ['light']);

      await createPasswordAccount(page.request, ownerEmail);
      await signInWithPassword(page, ownerEmail);
      await page.getByRole('link', { name: 'Organizations', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'You are not in any organization yet' })).toBeVisible();
      await expectAccessible(page, '/console (no organization yet)');
      await page.getByLabel('Organization name').fill('Journey Works');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await expect(nav(page)).toBeVisible();
      await expect(page).toHaveURL(/\/console\?organization=[0-9a-f-]{36}/);
      await expect(memberRow(page, ownerEmail)).toContainText('owner · Active');
    });

    const colleague = await (await browser.newContext({ baseURL: E2E_BASE_URL })).newPage();
    await test.step('the colleague opens the mailed link, signs up, accepts and lands in the console', async () => {
      const link = await invite(page, colleagueEmail);
      await colleague.goto(link);
      // The link names the organization and the role before anyone signs in.
      await expect(colleague.getByRole('heading', { name: 'Join Journey Works as member' })).toBeVisible();
      await expect(colleague.getByText('This invitation expires on')).toBeVisible();
      await expectAccessible(colleague, '/invitations/accept (signed out)');
      await colleague.getByRole('link', { name: 'Create an account' }).click();
      // The link confirmed the invited address: no code (e2e/organization-lifecycle.spec.ts looks closer).
      await colleague.getByLabel('New password').fill(PASSWORD);
      await colleague.getByRole('button', { name: 'Create account with password' }).click();
      // Back on the invitation, signed in.
      const join = colleague.getByRole('button', { name: `Join as ${colleagueEmail}` });
      await expect(join).toBeVisible();
      await expectAccessible(colleague, '/invitations/accept (signed in)');
      await shot(colleague, 'invitation-accept');
      await join.click();
      await expect(colleague.getByRole('heading', { name: 'You joined Journey Works' })).toBeVisible();
      await expect(colleague).toHaveURL(/\/invitations\/accept$/);
      await colleague.getByRole('link', { name: 'Open Journey Works in the console' }).click();
      await expect(memberRow(colleague, colleagueEmail)).toContainText('member · Active');
      await expect(nav(colleague).getByRole('link', { name: 'Invitations' })).toHaveCount(0);
      // The used link now only says so, and offers no way to join.
      const consoleAddress = colleague.url();
      await colleague.goto(link);
      await expect(colleague.getByText('This invitation link is not valid or has expired; ask for a new one.')).toBeVisible();
      await expect(colleague.getByRole('heading', { name: 'Join an organization' })).toBeVisible();
      await expect(colleague.getByRole('button', { name: `Join as ${colleagueEmail}` })).toHaveCount(0);
      await expectAccessible(colleague, '/invitations/accept (used link)', ['light']);
      await colleague.goto(consoleAddress);
    });

    await test.step('the owner creates a custom role, gives it to the colleague and puts them in a group', async () => {
      await open(page, 'Roles');
      const create = page.getByRole('form', { name: 'Create a custom role' });
      await create.getByLabel('Role name').fill('Support');
      await create.getByRole('checkbox', { name: /^invitations\.manage/ }).check();
      await create.getByRole('button', { name: 'Create role' }).click();
      await expect(status(page, 'Roles')).toHaveText('Role “Support” created.');
      const support = page.getByRole('form', { name: 'Permissions of Support' });
      await expect(support.getByRole('checkbox', { name: /^invitations\.manage/ })).toBeChecked();
      await expect(support.getByRole('checkbox', { name: /^groups\.manage/ })).not.toBeChecked();
      // The role's card edits its permissions: audit.read added, saved.
      await support.getByRole('checkbox', { name: /^audit\.read/ }).check();
      await support.getByRole('button', { name: 'Save permissions of Support' }).click();
      await expect(status(page, 'Roles')).toHaveText('Permissions of “Support” saved.');
      await expect(page.getByRole('form', { name: 'Permissions of Support' }).getByRole('checkbox', { name: /^audit\.read/ })).toBeChecked();

      await open(page, 'Members');
      const row = memberRow(page, colleagueEmail);
      await row.getByLabel(`Role of ${colleagueEmail}`).selectOption({ label: 'Support' });
      await row.getByRole('button', { name: 'Change role' }).click();
      await expect(status(page, 'Members')).toHaveText(`${colleagueEmail} is now Support.`);
      await expect(memberRow(page, colleagueEmail)).toContainText('Support');

      await open(page, 'Groups');
      await page.getByRole('form', { name: 'Create a group' }).getByLabel('Group name').fill('Front desk');
      await page.getByRole('button', { name: 'Create group' }).click();
      await expect(status(page, 'Groups')).toHaveText('Group “Front desk” created.');
      const group = section(page, 'Groups').getByRole('listitem').filter({ hasText: 'Front desk' }).first();
      await group.getByRole('button', { name: 'Show members' }).click();
      await group.getByLabel('Add a member').selectOption({ label: colleagueEmail });
      await group.getByRole('button', { name: 'Add to group' }).click();
      await expect(status(page, 'Groups')).toHaveText(`${colleagueEmail} added to “Front desk”.`);
      await expect(group).toContainText('1 member');
    });

    let thirdMembership = '';
    await test.step('a delegated admin manages members within the grant and not groups', async () => {
      // Set-up through the API: a third member to manage (the invitation journey itself is above).
      const link = await invite(page, thirdEmail);
      const third = await browser.newContext({ baseURL: E2E_BASE_URL });
      await createPasswordAccount(third.request, thirdEmail);
      const headers = { origin: E2E_BASE_URL };
      expect((await third.request.post('/api/auth/signin/password', { headers, data: { email: thirdEmail, password: PASSWORD } })).status()).toBe(201);
      const csrf = ((await (await third.request.get('/api/auth/session')).json()) as { csrf_token: string }).csrf_token;
      const token = new URL(link).searchParams.get('token');
      const accepted = await third.request.post('/api/organizations/invitations/accept', { headers: { ...headers, 'x-csrf-token': csrf }, data: { token } });
      expect(accepted.status()).toBe(200);
      thirdMembership = ((await accepted.json()) as { membership_id: string }).membership_id;
      await third.close();

      await open(page, 'Delegated admins');
      const grant = page.getByRole('form', { name: 'Grant permissions' });
      await grant.getByLabel('Member', { exact: true }).selectOption({ label: colleagueEmail });
      await grant.getByRole('checkbox', { name: /^members\.manage/ }).check();
      await grant.getByRole('button', { name: 'Grant' }).click();
      await expect(status(page, 'Delegated admins')).toHaveText(`${colleagueEmail} now holds members.manage.`);

      await colleague.reload();
      // The custom role's invitations.manage shows the Invitations section.
      await expect(nav(colleague).getByRole('link', { name: 'Invitations' })).toBeVisible();
      await expect(memberRow(colleague, thirdEmail)).toBeVisible();
      await memberRow(colleague, thirdEmail).getByRole('button', { name: 'Suspend', exact: true }).click();
      await memberRow(colleague, thirdEmail).getByRole('button', { name: 'Suspend member' }).click();
      await expect(status(colleague, 'Members')).toHaveText(`${thirdEmail} is suspended.`);
      // Beyond the grant: an owner is for owners to change, and the page says so.
      await memberRow(colleague, ownerEmail).getByRole('button', { name: 'Suspend', exact: true }).click();
      await memberRow(colleague, ownerEmail).getByRole('button', { name: 'Suspend member' }).click();
      await expect(memberRow(colleague, ownerEmail).getByRole('alert')).toHaveText('Only an owner may change or remove an owner.');

      await open(colleague, 'Groups');
      await expect(section(colleague, 'Groups')).toContainText('Your role lets you see groups but not change them.');
      await expect(colleague.getByRole('form', { name: 'Create a group' })).toHaveCount(0);
      await expect(colleague.getByRole('button', { name: 'Rename' })).toHaveCount(0);
    });

    await test.step('member removal needs an approval: its requester cannot give it, another admin does', async () => {
      await open(page, 'Policies');
      const policy = page.getByRole('form', { name: 'Change Changes that need approval' });
      await policy.getByRole('checkbox', { name: /^Removing or suspending a member/ }).check();
      await policy.getByRole('button', { name: 'Save' }).click();
      await expect(status(page, 'Policies')).toHaveText('Changes that need approval is now Removing or suspending a member.');

      // The colleague becomes an admin, to decide approvals.
      await open(page, 'Members');
      await memberRow(page, colleagueEmail).getByLabel(`Role of ${colleagueEmail}`).selectOption({ label: 'admin' });
      await memberRow(page, colleagueEmail).getByRole('button', { name: 'Change role' }).click();
      await expect(status(page, 'Members')).toHaveText(`${colleagueEmail} is now admin.`);

      await section(page, 'Members').getByLabel('Show').selectOption({ label: 'Suspended' });
      await memberRow(page, thirdEmail).getByRole('button', { name: 'Remove' }).click();
      await memberRow(page, thirdEmail).getByRole('button', { name: 'Remove member' }).click();
      await expect(memberRow(page, thirdEmail).getByRole('alert')).toContainText('requires an approved request from another administrator');
      // The refused change offers to request exactly its approval.
      const offer = memberRow(page, thirdEmail).getByRole('group', { name: 'Request approval for this change' });
      await offer.getByLabel('Reason for the approver (optional)').fill('Left the company');
      await offer.getByRole('button', { name: 'Request approval' }).click();
      await expect(memberRow(page, thirdEmail).getByRole('status')).toContainText('Approval requested.');

      await open(page, 'Approvals');
      const mine = section(page, 'Approvals').getByRole('listitem').filter({ hasText: thirdMembership });
      await expect(mine).toContainText(`Remove ${thirdEmail} from the organization`);
      await expect(mine).toContainText(`members.remove on ${thirdMembership}`);
      await expect(mine).toContainText('You requested this change, so another administrator must approve or reject it.');
      await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
      await shot(page, 'console-approval-own-request');

      // The colleague, signed in anew (no step-up yet), approves after confirming it is them.
      const second = await signedInWithCode(browser, colleagueEmail);
      await second.goto(page.url().replace(/&.*$/, '') + '&section=approvals');
      // Found by the member's address: the row names them once the member list has loaded.
      const theirs = section(second, 'Approvals')
        .getByRole('listitem')
        .filter({ hasText: `Remove ${thirdEmail} from the organization` });
      await theirs.getByRole('button', { name: 'Approve' }).click();
      await shot(second, 'console-approval-step-up');
      await second.getByLabel('Current password').fill(PASSWORD);
      await second.getByRole('button', { name: 'Confirm with password' }).click();
      await expect(status(second, 'Approvals')).toHaveText(`The request “Remove ${thirdEmail} from the organization” is approved.`);
      await second.context().close();

      // The owner's removal now goes through, with the approval used on the way.
      await open(page, 'Members');
      await section(page, 'Members').getByLabel('Show').selectOption({ label: 'Suspended' });
      await memberRow(page, thirdEmail).getByRole('button', { name: 'Remove' }).click();
      await memberRow(page, thirdEmail).getByRole('button', { name: 'Remove member' }).click();
      await expect(status(page, 'Members')).toHaveText(`${thirdEmail} was removed from the organization.`);
    });

    await test.step('the audit log shows the events, filtered by action, and exports CSV', async () => {
      await open(page, 'Audit log');
      const filters = page.getByRole('form', { name: 'Filter the audit log' });
      await filters.getByLabel('Action').fill('member.updated');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      const rows = page.getByRole('region', { name: 'Audit events' }).locator('tbody tr');
      // Support, suspended, admin.
      await expect(rows).toHaveCount(3);
      for (const action of await rows.locator('th').allTextContents()) expect(action).toBe('member.updated');

      // The colleague's one member change: the suspension, by a delegated admin.
      await filters.getByLabel('Actor').selectOption({ label: colleagueEmail });
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await expect(rows).toHaveCount(1);
      await expect(rows.first().locator('td[data-label="Actor"]')).toHaveText(colleagueEmail);
      await expect(rows.first().locator('td[data-label="Subject"] .auth-email')).toHaveText(thirdEmail);
      await expect(rows.first().getByRole('list', { name: 'Changes' })).toHaveText('status: active → suspended');

      await filters.getByLabel('Action').fill('approval.decided');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await expect(rows).toHaveCount(1);

      await filters.getByRole('button', { name: 'Clear' }).click();
      await expect(rows.filter({ hasText: 'member.revoked' })).toHaveCount(1);
      await expect(rows.filter({ hasText: 'invitation.accepted' })).toHaveCount(2);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Export \d+ loaded events as CSV$/ }).click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-journey-works-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.split('\r\n')[0]).toBe(
        '"created_at","action","outcome","actor_type","actor_id","subject_type","subject_id","request_id","data","actor_name","subject_name","changes"',
      );
      expect(csv).toContain('"member.revoked"');
      expect(csv).toContain('"approval.consumed"');
    });

    await test.step('every section: no sideways scroll at 390 px, reachable by keyboard, and axe-clean', async () => {
      const base = page.url().replace(/&.*$/, '');
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        for (const label of SECTION_LABELS) {
          await open(page, label);
          await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${label} at ${width} px: ${await widerThan(page, width)}`,
          ).toBeLessThanOrEqual(width);
          await shot(page, `console-${label.toLowerCase().replaceAll(' ', '-')}-${width}`);
          if (width === 390) await expectAccessible(page, `console: ${label}`);
        }
      }

      // Keyboard only, from the top of the page: Tab reaches each section's link, Enter opens it.
      await page.goto(base);
      for (const label of SECTION_LABELS) {
        const link = nav(page).getByRole('link', { name: label, exact: true });
        await tabTo(page, link, label, 60);
        await page.keyboard.press('Enter');
        await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
        await expect(link).toHaveAttribute('aria-current', 'page');
      }
    });
  });

  test('a passkey-only step-up in a browser without WebAuthn says why it cannot go on', async ({ page }) => {
    await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('passkey-only');
    await signUpWithPasskey(page, email);
    // An e-mail code session: no step-up yet, and the account's one step-up method is its passkey.
    await signInWithCode(page, email);
    await page.addInitScript(() => {
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    });
    await page.goto('/console');
    await page.getByLabel('Organization name').fill('No WebAuthn here');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const panel = page.locator('section', { has: page.getByRole('heading', { name: "Confirm it's you" }) });
    await expect(panel.getByRole('alert')).toContainText('can only be confirmed with a passkey, and this browser cannot use passkeys');
    await expect(panel.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Cancel' })).toBeFocused();
  });
});
