/**
 * The signing-key roll-over seen from an independent resource server (jose): a machine token signed
 * before `rotate` still verifies against the JWKS of an instance started after it (the old key is
 * published as retiring), retiring is refused while such a token may still be valid, and once the old
 * key is retired an instance started after that no longer publishes it: the token is refused.
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { runNodeHandler } from '@/lib/http/node-bridge';
import { useMailbox } from '@/tests/helpers/accounts';
import { createApiResource, MACHINE_ACCESS } from '@/tests/helpers/api-resources';
import { applicationRp, createApplication } from '@/tests/helpers/applications';
import { ORIGIN } from '@/tests/helpers/http';
import { asBrowser, person } from '@/tests/helpers/organizations';
import { longestSignedTokenSeconds, retireRetiringKeys, retirementDueAt, rotateKeys } from './keys';
import { createProvider } from './provider';

const mailbox = useMailbox();

/** The JWKS an instance started now publishes (a restart reads the keys again). */
async function jwksOfANewInstance(): Promise<JSONWebKeySet> {
  const provider = await createProvider();
  const answer = await runNodeHandler(
    provider.callback() as never,
    new Request(`${ORIGIN}/.well-known/jwks.json`),
    Buffer.alloc(0),
    getConfig().origin,
    '127.0.0.1',
  );
  return (await answer.json()) as JSONWebKeySet;
}

describe('the signing-key roll-over', () => {
  it('keeps the old key published until its last token expires, then refuses what it signed', async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner);
    await asBrowser(owner.browser, 'PUT', MACHINE_ACCESS, {
      params: { api_resource_id: api.id },
      body: { client_id: app.client_id, permissions: ['invoices:read'] },
    });
    const { access_token } = await client.clientCredentialsGrant(await applicationRp(app.client_id, app.client_secret), { resource: api.identifier });
    const { kid } = decodeProtectedHeader(access_token);
    const verify = (jwks: JSONWebKeySet) => jwtVerify(access_token, createLocalJWKSet(jwks), { issuer: ORIGIN, audience: api.identifier });

    const rotatedAt = new Date();
    await rotateKeys(rotatedAt);
    const during = await jwksOfANewInstance();
    expect(during.keys.map((k) => k.kid)).toContain(kid);
    expect((await verify(during)).payload.client_id).toBe(app.client_id);

    // Not before every token the old key signed has expired (a day: an API's longest lifetime).
    expect(longestSignedTokenSeconds()).toBe(86_400);
    const due = (await retirementDueAt())!;
    expect(due.getTime()).toBeGreaterThanOrEqual(rotatedAt.getTime() + 86_400_000 - 1000);
    await expect(retireRetiringKeys(new Date(due.getTime() - 60_000))).rejects.toThrow(/still verify tokens/);

    await retireRetiringKeys(new Date(due.getTime() + 1000));
    const after = await jwksOfANewInstance();
    expect(after.keys.map((k) => k.kid)).not.toContain(kid);
    await expect(verify(after)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });
});
