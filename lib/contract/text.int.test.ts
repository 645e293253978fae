/**
 * Every human-readable name field applies the one text rule (text.ts) through the real pipeline: a
 * line break or a text-direction override is a 400 with the field's pointer and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox, verifiedEnrollment } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBrowser, ownedOrganization, person } from '@/tests/helpers/organizations';
import { LOOPBACK_ENV, WEBHOOKS } from '@/tests/helpers/webhooks';
import { ONE_LINE_MESSAGE } from './text';

const mailbox = useMailbox(LOOPBACK_ENV);
const CRLF = 'Ada\r\nBcc: everyone@example.test';
const RLO = '\u202egnp.exe';

async function expectRefused(response: Response, path: string) {
  expect(response.status, await response.clone().text()).toBe(400);
  expect((await problemOf(response)).errors).toEqual([{ path, message: ONE_LINE_MESSAGE }]);
}

describe('one text rule for every human-readable name', () => {
  it('display names: the account page and PATCH /api/v1/me refuse CR/LF and U+202E, and the name (and OIDC name claim) is unchanged', async () => {
    const ada = await person(mailbox, 'names-profile');
    expect((await asBrowser(ada.browser, 'PATCH', '/api/auth/profile', { body: { display_name: 'Ada' } })).status).toBe(200);
    const token = (await mintAccessToken(ada.userId, 'openid identity.profile.read identity.profile.write')).value;
    for (const name of [CRLF, RLO, 'Ada\tLovelace', 'Ada\u2028Lovelace']) {
      await expectRefused(await asBrowser(ada.browser, 'PATCH', '/api/auth/profile', { body: { display_name: name } }), 'body.display_name');
      const api = await call(operation('PATCH', '/api/v1/me'), {
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
        body: { display_name: name },
      });
      await expectRefused(api, 'body.display_name');
    }
    const claims = await call(operation('GET', '/oauth/userinfo'), { headers: { authorization: `Bearer ${token}` } });
    expect(await claims.json()).toMatchObject({ sub: ada.userId, name: 'Ada' });
  });

  it('display names at enrollment', async () => {
    const token = await verifiedEnrollment(mailbox, `names-enrol.${randomUUID().slice(0, 8)}@example.test`);
    for (const name of [CRLF, RLO]) {
      const response = await call(operation('POST', '/api/auth/enrollment/password/complete'), {
        headers: { origin: ORIGIN, ...token },
        body: { password: 'a long enrollment passphrase', display_name: name },
      });
      await expectRefused(response, 'body.display_name');
    }
  });

  it('passkey names', async () => {
    const ada = await person(mailbox, 'names-passkey');
    for (const name of [CRLF, RLO]) {
      await expectRefused(
        await asBrowser(ada.browser, 'PATCH', '/api/auth/passkeys/{passkey_id}', { params: { passkey_id: randomUUID() }, body: { name } }),
        'body.name',
      );
    }
  });

  it('role descriptions (organization, role and group names already followed the rule)', async () => {
    const { owner, id } = await ownedOrganization(mailbox, 'names-role');
    for (const description of [CRLF, RLO]) {
      const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', {
        params: { id },
        body: { name: 'Support', description, permissions: ['groups.manage'] },
      });
      await expectRefused(response, 'body.description');
    }
  });

  it('webhook descriptions', async () => {
    const ada = await person(mailbox, 'names-webhook');
    for (const description of [CRLF, RLO]) {
      const response = await asBrowser(ada.browser, 'POST', WEBHOOKS, {
        body: { url: 'https://127.0.0.1:9/hook', events: ['identity.user.updated'], description },
      });
      await expectRefused(response, 'body.description');
    }
    const list = (await (await asBrowser(ada.browser, 'GET', WEBHOOKS)).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it('the client_name of a dynamically registered client (shown on the consent page)', async () => {
    for (const name of [CRLF, RLO]) {
      const response = await call(operation('POST', '/oauth/register'), {
        headers: { 'x-forwarded-for': `2001:db8:7e::${randomUUID().slice(0, 4)}` },
        body: { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:50010/callback'], client_name: name },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_client_metadata', error_description: `client_name: ${ONE_LINE_MESSAGE}` });
    }
  });
});
