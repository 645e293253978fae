import type { Metadata } from 'next';
import type { CallOutput } from '@/lib/contract/client';
import { redirect } from 'next/navigation';
import { SERVICE_NAME } from '@/lib/config';
import { CONTRACTS } from '@/lib/http/contracts';
import { callAsVisitor, visitorSession } from '../../_components/auth/server-session';
import { ConsentDecision } from './consent-decision';
import '../../auth.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Allow access?' };

type OrganizationChoice = CallOutput<typeof CONTRACTS.getAuthorizationOrganizations>;

const REFUSALS: Record<NonNullable<OrganizationChoice['refusal']>, string> = {
  not_a_member:
    'The application asks for access to an organization you are not an active member of. You cannot allow it; go back to the application, or ask the organization to add you.',
  no_organizations:
    'The application asks for access to one of your organizations, and you are not an active member of any. You cannot allow it; go back to the application.',
  application_not_assigned:
    'The organization lets its members use only the applications it has assigned, and this application is not one of them. You cannot allow it; ask an administrator of the organization to assign it.',
};

const signInPage = (interactionId: string, again: boolean) =>
  `/sign-in?return_to=${encodeURIComponent(`/consent/${interactionId}`)}${again ? '&reauthenticate=1' : ''}`;

export default async function ConsentPage({ params }: { params: Promise<{ interaction_id: string }> }) {
  const { interaction_id: interactionId } = await params;
  const session = await visitorSession();
  if (!session) redirect(signInPage(interactionId, false));
  const context = await callAsVisitor(CONTRACTS.getAuthorizationContext, { query: { interaction_id: interactionId } });
  if (!context) {
    return (
      <>
        <h1>This request has expired</h1>
        <p className="lead">Go back to the application and start signing in again.</p>
      </>
    );
  }
  // prompt=login or max_age: the application wants a sign-in at least this recent.
  if (context.sign_in_after && new Date(session.session.authenticated_at) < new Date(context.sign_in_after)) {
    redirect(signInPage(interactionId, true));
  }
  const choice = await callAsVisitor(CONTRACTS.getAuthorizationOrganizations, { query: { interaction_id: interactionId } });
  if (!choice) {
    return (
      <>
        <h1>This request has expired</h1>
        <p className="lead">Go back to the application and start signing in again.</p>
      </>
    );
  }
  // The request's own organization is fixed (listed when the person is an active member); otherwise they choose.
  const requested = choice.requested ? choice.organizations[0] : undefined;
  const organization = !choice.required ? null : requested ? { fixed: requested } : { choices: choice.organizations };
  return (
    <>
      <h1>Allow {context.client.client_name} to access your account?</h1>
      {context.client.self_registered && (
        <div className="card auth-card" role="note" aria-labelledby="consent-unverified">
          <h2 id="consent-unverified">Unverified application</h2>
          <p>
            {SERVICE_NAME} has not checked who runs this application. “{context.client.client_name}” is the name the application gave itself. Continue only if
            you started this from an application you trust.
          </p>
        </div>
      )}
      <p className="lead">
        You are signed in as <strong>{session.user.email}</strong>. If you allow it, the access is sent to <strong>{context.redirect_host}</strong>, and your
        answer takes you back there.
      </p>
      <section className="card auth-card" aria-labelledby="consent-scopes">
        <h2 id="consent-scopes">It asks to</h2>
        <ul>
          {context.scopes.map((s) => (
            <li key={s.scope}>
              {s.description} <span className="hint">({s.scope})</span>
            </li>
          ))}
        </ul>
        {context.api ? (
          <p>
            These permissions are for <strong>{context.api.name}</strong> <span className="hint">({context.api.identifier})</span>, described by the people who
            run it.
          </p>
        ) : (
          context.resource && <p className="hint">For use with {context.resource}</p>
        )}
        {requested && (
          <p>
            In the organization <strong>{requested.name}</strong> only.
          </p>
        )}
      </section>
      {choice.refusal && (
        <div className="card auth-card" role="alert">
          <p>{REFUSALS[choice.refusal]}</p>
        </div>
      )}
      <ConsentDecision interactionId={interactionId} csrfToken={session.csrf_token} organization={organization} allowed={choice.refusal === null} />
    </>
  );
}
