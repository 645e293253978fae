'use client';

import { useEffect, useState } from 'react';
import type { ItemOf } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';
import { CopyButton } from './copy-button';
import { quickstartCode } from './quickstart-code';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** One read of the discovery document per page: every card shows the issuer it names. */
let issuerRead: Promise<string | null> | null = null;
function readIssuer(): Promise<string | null> {
  issuerRead ??= fetch(DISCOVERY_PATH)
    .then((response) => (response.ok ? (response.json() as Promise<{ issuer?: unknown }>) : null))
    .then((metadata) => (typeof metadata?.issuer === 'string' ? metadata.issuer : null))
    .catch(() => null)
    .then((issuer) => {
      if (issuer === null) issuerRead = null; // try again on the next card or visit
      return issuer;
    });
  return issuerRead;
}

/** The provider's issuer as discovery states it: undefined while it loads, null when it could not be read. */
export function useIssuer(): string | null | undefined {
  const [issuer, setIssuer] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void readIssuer().then((value) => current && setIssuer(value));
    return () => {
      current = false;
    };
  }, []);
  return issuer;
}

/** A value to paste into a relying party's configuration, with its Copy button. */
export function CopyableValue({ value, label }: { value: string; label: string }) {
  return (
    <span className="portal-copyable">
      <code className="portal-id">{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/** The provider's side of the configuration: issuer and discovery URL, for the card's facts. */
export function ProviderFacts({ issuer }: { issuer: string | null | undefined }) {
  const state = issuer === undefined ? 'Loading…' : 'The discovery document did not load; reload the page.';
  return (
    <>
      <div>
        <dt>Issuer</dt>
        <dd>{issuer ? <CopyableValue value={issuer} label="issuer" /> : <span className="hint">{state}</span>}</dd>
      </div>
      <div>
        <dt>Discovery URL</dt>
        <dd>{issuer ? <CopyableValue value={`${issuer}${DISCOVERY_PATH}`} label="discovery URL" /> : <span className="hint">{state}</span>}</dd>
      </div>
    </>
  );
}

/**
 * A Node.js relying party for this application (Express and openid-client), behind a disclosure so
 * the card stays short. The code names no secret: a confidential client reads it from CLIENT_SECRET.
 */
export function Quickstart({ application, issuer }: { application: ItemOf<Contracts['listApplications']>; issuer: string }) {
  const code = quickstartCode({
    issuer,
    clientId: application.client_id,
    clientType: application.client_type,
    redirectUri: application.redirect_uris[0]!,
    scopes: application.approved_scopes,
  });
  return (
    <details className="console-details portal-quickstart">
      <summary>Node.js quickstart (Express, openid-client)</summary>
      <p className="hint">
        Sign people in to your app with these lines: <code>/login</code> sends them here, and your redirect URI takes the answer.
        {application.client_type === 'confidential'
          ? ' Put the client secret in the CLIENT_SECRET environment variable, never in code.'
          : ' A public client has no secret: PKCE proves it is the same app.'}
      </p>
      <pre className="portal-code" role="region" tabIndex={0} aria-label={`Node.js quickstart for ${application.name}`}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label="quickstart code" />
    </details>
  );
}
