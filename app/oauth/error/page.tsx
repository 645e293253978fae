import type { Metadata } from 'next';
import { CONTRACTS } from '@/lib/http/contracts';
import { callAsVisitor } from '../../_components/auth/server-session';
import { explain } from './explanations';
import { ReturnActions } from './return-actions';
import '../../auth.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign-in request not completed' };

type Query = Record<string, string | string[] | undefined>;

/** The provider sends only these values here (lib/oidc/error-page.ts); anything else is ignored. */
function value(query: Query, name: string, pattern: RegExp): string | undefined {
  const raw = query[name];
  return typeof raw === 'string' && pattern.test(raw) ? raw : undefined;
}

/**
 * Where the OAuth provider sends a browser when an authorization request fails: what happened and what
 * to do, in the site's layout, with the request id for whoever helps. When the application's return
 * address is not one this service vouches for (RFC 9700 §4.11.2), the person decides whether to go
 * back there.
 */
export default async function OAuthErrorPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const error = value(query, 'error', /^[a-z0-9_]{1,64}$/) ?? 'server_error';
  const requestId = value(query, 'request_id', /^[A-Za-z0-9._:-]{8,128}$/);
  // The sealed way back (lib/oidc/authorization-returns.ts); its operation checks it again.
  const returnId = value(query, 'return', /^[A-Za-z0-9_.-]{1,6000}$/);
  const { heading, text } = explain(error, value(query, 'reason', /^[a-z_]{1,32}$/));
  const back = returnId ? await callAsVisitor(CONTRACTS.getAuthorizationReturn, { query: { return_id: returnId } }) : null;
  return (
    <div className="auth-page auth-narrow">
      <h1>{heading}</h1>
      <p className="lead">{text}</p>
      {back && (
        <section className="card auth-card" aria-labelledby="oauth-return">
          <h2 id="oauth-return">
            {back.client.client_name} wants to send you back to {back.redirect_host}
          </h2>
          <p className="hint">Continue only if you know this application and expected to go there. If a link you did not trust brought you here, cancel.</p>
          <ReturnActions host={back.redirect_host} to={back.continue_to} />
        </section>
      )}
      <section aria-labelledby="oauth-help">
        <h2 id="oauth-help">What you can do</h2>
        <p>
          Go back to the application and try again. If it keeps happening, contact the application&apos;s developer or this service&apos;s operator and give
          them the details below.
        </p>
        <dl className="auth-profile">
          <div>
            <dt>Error code</dt>
            <dd>
              <code>{error}</code>
            </dd>
          </div>
          {requestId && (
            <div>
              <dt>Request id</dt>
              <dd>
                <code>{requestId}</code>
              </dd>
            </div>
          )}
        </dl>
      </section>
    </div>
  );
}
