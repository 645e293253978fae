/**
 * The portal offers an application every scope the provider advertises in discovery: an
 * off-the-shelf relying party asks for `openid profile email`, and a developer must be able to tick
 * them. Each offered scope is accepted by the developer API, and the OIDC names are approved at once.
 */
import { describe, expect, it } from 'vitest';
import { APPLICATION_SCOPES } from '@/app/portal/application-scopes';
import { useMailbox } from '@/tests/helpers/accounts';
import { createApplication } from '@/tests/helpers/applications';
import { call, operation } from '@/tests/helpers/http';
import { person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();
const offered = APPLICATION_SCOPES.map((choice) => choice.scope);

describe('the scopes the portal offers an application', () => {
  it('are exactly the scopes discovery advertises, profile and email among them', async () => {
    const discovery = (await (await call(operation('GET', '/.well-known/openid-configuration'))).json()) as { scopes_supported: string[] };
    expect([...offered].sort()).toEqual([...discovery.scopes_supported].sort());
    expect(offered).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']));
  });

  it('say which scope an OpenID Connect name stands for', () => {
    expect(APPLICATION_SCOPES.find((choice) => choice.scope === 'profile')?.description).toMatch(/\(the OpenID Connect name for identity\.profile\.read\)$/);
    expect(APPLICATION_SCOPES.find((choice) => choice.scope === 'email')?.description).toMatch(/\(the OpenID Connect name for identity\.email\.read\)$/);
  });

  it('are each accepted by the developer API; openid, profile and email need no review', async () => {
    const owner = await person(mailbox, 'scopes');
    const created = await createApplication(owner, { scopes: offered });
    expect([...created.scopes].sort()).toEqual([...offered].sort());
    expect(created.approved_scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
  });
});
