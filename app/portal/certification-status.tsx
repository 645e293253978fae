'use client';

import { useEffect, useState } from 'react';
import type { Api } from '../_components/api/use-api';
import { problemMessage } from '../_components/auth/api';
import { DottedName } from '../_components/dotted-name';
import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

type Certification = CallOutput<Contracts['getApplicationCertification']>;

/** Which scopes an application may request now (approved) and which wait for review (pending). */
export function CertificationStatus({ applicationId, api }: { applicationId: string; api: Api }) {
  const [status, setStatus] = useState<Certification | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void api.getApplicationCertification({ params: { application_id: applicationId } }).then((result) => {
      // null: the page is leaving for the sign-in page.
      if (!current || !result) return;
      if (result.ok) setStatus(result.body);
      else setError(problemMessage(result.body));
    });
    return () => {
      current = false;
    };
  }, [applicationId, api]);

  if (error) return <p className="hint">Certification status unavailable: {error}</p>;
  if (!status) return <p className="hint">Loading the certification status…</p>;
  const certified = status.status === 'certified';
  const problems = openChecks(status.checks);
  return (
    <div className="portal-certification">
      <p>
        <strong>Certification:</strong>{' '}
        <span className={`badge ${certified ? 'badge-ready' : 'badge-manual'}`}>{certified ? 'Certified' : 'Pending review'}</span>
      </p>
      <ScopeList label="Approved scopes" scopes={status.approved_scopes} none="None yet." />
      <ScopeList label="Pending scopes" scopes={status.pending_scopes} none="None: every scope it asks for is approved." />
      {problems.length > 0 && (
        <ul className="portal-values">
          {problems.map((problem) => (
            <li key={problem} className="console-warn">
              {problem}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Portal words for the checks the owner can act on here (the API's details name its operations). */
const CHECK_WORDS: Record<string, string> = {
  client_secret_issued: 'No client secret yet: use “Rotate secret” to issue one.',
  // The pending scopes are listed above already.
  scopes_reviewed: '',
};

/** What still stands in the way; for a disabled application only that, since nothing else matters any more. */
function openChecks(checks: Certification['checks']): string[] {
  const failed = checks.filter((check) => !check.passed);
  const disabled = failed.find((check) => check.name === 'application_enabled');
  if (disabled) return [disabled.detail ?? 'The application is disabled.'];
  return failed.map((check) => CHECK_WORDS[check.name] ?? check.detail ?? check.name).filter(Boolean);
}

function ScopeList({ label, scopes, none }: { label: string; scopes: string[]; none: string }) {
  return (
    <p>
      {label}:{' '}
      {scopes.length === 0
        ? none
        : scopes.map((scope, index) => (
            <span key={scope}>
              {index > 0 && ', '}
              <DottedName name={scope} />
            </span>
          ))}
    </p>
  );
}
