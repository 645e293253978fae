import { expect, test, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { startCompanyWorld, type CompanyWorld } from './support/company-idp';
import { createOrganizationInConsole, screenshots, signedInWithPassword, uniqueEmail } from './support/journeys';
import { E2E_BASE_URL } from './support/ports';

/**
 * Enterprise federation through the pages: an owner proves the company's domain (the TXT record the
 * console names, published in a real DNS server), connects the company's own OpenID provider (a
 * separate node-oidc-provider over HTTPS) and activates it; a new employee then signs in through that
 * provider from the hosted sign-in page and lands signed in, a member the console lists.
 */

let world: CompanyWorld;
test.beforeAll(async () => {
  world = await startCompanyWorld();
});
test.afterAll(async () => world?.close());

const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) }).last();
const nav = (page: Page) => page.getByRole('navigation', { name: /sections$/ });

async function open(page: Page, label: string) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
}

test('an organization federates its domain, and a new employee signs in through the company provider', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const ownerEmail = uniqueEmail('federating.owner');
  const domain = `corp-${Date.now().toString(36)}.test`;
  const connectionId = `corp-${Date.now().toString(36)}`;

  await test.step('the owner signs in and creates the organization', async () => {
    await signedInWithPassword(page, ownerEmail);
    await createOrganizationInConsole(page, 'Corp Federated');
  });

  await test.step('registers the domain, publishes the TXT record it names, and verifies it', async () => {
    await open(page, 'Domains');
    const domains = section(page, 'Domains');
    const form = page.getByRole('form', { name: 'Register a domain' });
    await form.getByLabel('Domain', { exact: true }).fill(domain);
    await form.getByRole('button', { name: 'Register domain' }).click();
    const record = domains.getByRole('definition').filter({ hasText: '_identity-challenge.' });
    await expect(record).toContainText(`_identity-challenge.${domain}`);
    // Verifying before the record exists says what was (not) found.
    await domains.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect(domains.getByRole('alert')).toContainText('No TXT record was found');
    const value = await domains.getByRole('definition').filter({ hasText: 'identity-domain-verification=' }).locator('code').innerText();
    world.dns.setTxt(`_identity-challenge.${domain}`, [value]);
    await domains.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect(domains.getByRole('status').last()).toHaveText(`${domain} is verified.`);
    await screenshots(page, 'console-domains');
    await expectAccessible(page, 'console: domains');
  });

  await test.step('connects the company provider and activates it', async () => {
    await open(page, 'Single sign-on');
    const form = page.getByRole('form', { name: 'Connect an identity provider' });
    await form.getByLabel('Connection id').fill(connectionId);
    await form.getByLabel('Display name').fill('Corp Login');
    await form.getByLabel(domain).check();
    await form.getByLabel('Issuer URL').fill(world.idp.issuer);
    await form.getByLabel('Client ID').fill(world.clientId);
    await form.getByLabel('Client secret').fill(world.clientSecret);
    await form.getByRole('button', { name: 'Register connection' }).click();
    const sso = section(page, 'Single sign-on');
    const card = sso.getByRole('listitem').filter({ hasText: 'Corp Login' });
    await expect(card).toContainText(`${E2E_BASE_URL}/api/auth/federation/oidc/callback`);
    await card.getByRole('button', { name: 'Test connection to Corp Login' }).click();
    await expect(card.getByText(/^Healthy: /)).toBeVisible();
    await card.getByRole('button', { name: 'Activate Corp Login' }).click();
    await expect(card).toContainText('active');
    await screenshots(page, 'console-sso');
    await expectAccessible(page, 'console: single sign-on');
  });

  const employeeEmail = `new.hire@${domain}`;
  await test.step('a new employee signs in with the work account, through the company provider', async () => {
    world.idp.setAccount('employee-42', { email: employeeEmail, email_verified: true, name: 'New Hire' });
    // The company provider's pages use the test-only certificate, which this browser is told to accept.
    const employee = await (await browser.newContext({ baseURL: E2E_BASE_URL, ignoreHTTPSErrors: true })).newPage();
    await employee.goto('/sign-in');
    await employee.getByLabel('Work e-mail address').fill(employeeEmail);
    await employee.getByRole('button', { name: 'Continue', exact: true }).click();
    await screenshots(employee, 'sign-in-work-account');
    await employee.getByRole('link', { name: 'Continue with Corp Login' }).click();
    // node-oidc-provider's own login and consent pages.
    await employee.locator('input[name="login"]').fill('employee-42');
    await employee.locator('input[name="password"]').fill('any password');
    await employee.locator('button[type="submit"]').click();
    await employee.locator('button[type="submit"]').click();
    await expect(employee).toHaveURL(/\/sign-in\?federation=signed_in$/);
    await expect(employee.getByText(employeeEmail)).toBeVisible();
    await employee.context().close();
  });

  await test.step('the owner sees the new employee among the members', async () => {
    await open(page, 'Members');
    await expect(section(page, 'Members').getByRole('listitem').filter({ hasText: employeeEmail })).toContainText('member · Active');
  });
});

test('the sign-in page explains a federated sign-in that came back refused', async ({ page }) => {
  // The page's own alerts (Next's route announcer is an alert region too).
  const alerts = page.locator('[role="alert"].auth-alert');
  await page.goto('/sign-in?federation=foreign_domain');
  await expect(alerts).toHaveText('That account belongs to a domain your organization has not verified here. Sign in with your work account.');
  // A value the service never sends says nothing.
  await page.goto('/sign-in?federation=<script>');
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(alerts).toHaveCount(0);
});
