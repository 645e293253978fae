import { describe, expect, it } from 'vitest';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, callRoute, operation } from '@/tests/helpers/http';
import { authorizationParams, authorize, CookieJar, decideAs, interactionOf, pkce, registerNativeClient, resume } from '@/tests/helpers/oauth';

const mailbox = useMailbox();

// Found by the bad-input properties (tests/properties): the provider's error handler for the resume
// step read client_id from the query and failed with a TypeError for a client with one redirect URI.
describe('the resume step', () => {
  it('answers an unknown interaction with our error page, whatever the query says', async () => {
    const clientId = await registerNativeClient();
    for (const query of [`client_id=${clientId}`, `client_id=${clientId}&state=s&response_type=code`, '']) {
      const response = await callRoute('GET', '/oauth/authorize/{uid}', { params: { uid: 'unknown-interaction' }, query });
      expect(response.status, query).toBe(303);
      const location = new URL(response.headers.get('location')!, 'http://localhost:3000');
      expect(location.pathname, query).toBe('/oauth/error');
      expect(location.searchParams.get('error'), query).toBe('invalid_request');
    }
  });
});

// The resume cookie lives at Path=/ (provider-cookies.ts; docs/decisions.md, "Provider cookies").
describe('two authorizations in one browser', () => {
  it('only the later resumes; the earlier lands on the error page as expired', async () => {
    await signUpWithPassword(mailbox, 'two-tabs@example.test', 'a long and unusual passphrase');
    const browser = await signInWithPassword('two-tabs@example.test', 'a long and unusual passphrase');
    const clientId = await registerNativeClient();
    const jar = new CookieJar(browser);
    const earlier = interactionOf(await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid' })));
    const later = interactionOf(await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid' })));
    const earlierTo = (await (await decideAs(browser, earlier)).json()).redirect_to as string;
    const laterTo = (await (await decideAs(browser, later)).json()).redirect_to as string;

    const refused = await call(operation('GET', '/oauth/authorize/{uid}'), {
      params: { uid: earlierTo.split('/').pop()! },
      headers: { cookie: jar.header(), accept: 'text/html', 'sec-fetch-site': 'same-origin' },
    });
    expect(refused.status).toBe(303);
    const page = new URL(refused.headers.get('location')!, 'http://localhost:3000');
    expect(page.pathname).toBe('/oauth/error');
    expect(page.searchParams.get('reason')).toBe('expired');
    expect((await resume(jar, laterTo)).searchParams.get('code')).toBeTruthy();
  });
});
