'use client';

import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { callContract } from '../../_components/api/call';
import { problemMessage } from '../../_components/auth/api';
import { LocalTime } from '../../_components/auth/local-time';

type Accepted = CallOutput<Contracts['acceptOrganizationInvitation']>;

/** How the Join button tells the page that the invitation was accepted. */
const JoinedContext = createContext<(accepted: Accepted) => void>(() => undefined);
export const useJoined = () => useContext(JoinedContext);

/** What the link offers, never who it was sent to. */
type InvitationPreview = CallOutput<Contracts['previewOrganizationInvitation']>;

type Offer = { state: 'checking' } | { state: 'valid'; preview: InvitationPreview } | { state: 'invalid' } | { state: 'unknown'; message: string };

const INVALID_LINK = 'This invitation link is not valid or has expired; ask for a new one.';

/**
 * The heading and expiry of an invitation, read from the API with the link's token in a POST body (the
 * token never goes into another URL). `children` (how to sign in, or the Join button) follow once the
 * link is known to be good; a link that is not (unknown, used, revoked, expired: the API does not say
 * which) gets one sentence instead. When the API cannot say (rate limit, network), its message is
 * shown and the way on stays: accepting checks the token again.
 */
export function InvitationOffer({ token, children }: { token: string; children: ReactNode }) {
  const [offer, setOffer] = useState<Offer>({ state: 'checking' });
  const [joined, setJoined] = useState<Accepted | null>(null);

  useEffect(() => {
    let current = true;
    void callContract(CONTRACTS.previewOrganizationInvitation, { body: { token } }).then((result) => {
      if (!current) return;
      if (result.ok) setOffer({ state: 'valid', preview: result.body });
      else if (result.status === 404) setOffer({ state: 'invalid' });
      else setOffer({ state: 'unknown', message: problemMessage(result.body) });
    });
    return () => {
      current = false;
    };
  }, [token]);

  if (joined) return <Joined accepted={joined} preview={offer.state === 'valid' ? offer.preview : null} />;

  if (offer.state === 'valid') {
    const { organization, role_name, expires_at } = offer.preview;
    return (
      <>
        <h1>
          Join {organization.name} as {role_name}
        </h1>
        <p className="lead">
          This invitation expires on <LocalTime iso={expires_at} />.
        </p>
        <JoinedContext value={setJoined}>{children}</JoinedContext>
      </>
    );
  }

  return (
    <>
      <h1>Join an organization</h1>
      {offer.state === 'checking' && (
        <p className="lead" role="status">
          Checking the invitation…
        </p>
      )}
      {offer.state === 'invalid' && (
        <p role="alert" className="error auth-alert">
          {INVALID_LINK}
        </p>
      )}
      {offer.state === 'unknown' && (
        <>
          <p role="alert" className="error auth-alert">
            {offer.message}
          </p>
          <JoinedContext value={setJoined}>{children}</JoinedContext>
        </>
      )}
    </>
  );
}

/**
 * After Join: what happened (the organization and role the invitation named, when the preview could
 * read them), focused so that it is announced, and the way into the console. The invitation's expiry
 * no longer matters and is not shown.
 */
function Joined({ accepted, preview }: { accepted: Accepted; preview: InvitationPreview | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const name = preview?.organization.name;
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {name ? `You joined ${name}` : 'You joined the organization'}
      </h1>
      <section className="card auth-card auth-success" aria-label="Your membership">
        <p>
          {preview ? (
            <>
              You are now a member of <strong>{preview.organization.name}</strong> with the role <strong>{preview.role_name}</strong>.
            </>
          ) : (
            'You are now a member.'
          )}
        </p>
        <a className="auth-button-link" href={`/console?organization=${encodeURIComponent(accepted.organization_id)}`}>
          Open {name ?? 'the organization'} in the console
        </a>
      </section>
    </>
  );
}
