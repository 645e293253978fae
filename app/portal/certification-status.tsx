'use client';

import { useEffect, useState } from 'react';
import { problemMessage } from '../_components/auth/api';
import { DottedName } from '../_components/dotted-name';
import type { PortalRead } from './portal-api';
import type { Certification } from './types';

/** Which scopes an application may request now (approved) and which wait for review (pending). */
export function CertificationStatus({ applicationId, read }: { applicationId: string; read: PortalRead }) {
  const [status, setStatus] = useState<Certification | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void read<Certification>(`/api/developer/applications/${encodeURIComponent(applicationId)}/certification/status`).then((result) => {
      if (!current) return;
      if (result.ok) setStatus(result.body);
      else setError(problemMessage(result.body));
    });
    return () => {
      current = false;
    };
  }, [applicationId, read]);

  if (error) return <p className="hint">Certification status unavailable: {error}</p>;
  if (!status) return <p className="hint">Loading the certification status…</p>;
  const certified = status.status === 'certified';
  return (
    <div className="portal-certification">
      <p>
        <strong>Certification:</strong>{' '}
        <span className={`badge ${certified ? 'badge-ready' : 'badge-manual'}`}>{certified ? 'Certified' : 'Pending review'}</span>
      </p>
      <ScopeList label="Approved scopes" scopes={status.approved_scopes} none="None yet." />
      <ScopeList label="Pending scopes" scopes={status.pending_scopes} none="None: every scope it asks for is approved." />
      {status.checks.some((check) => !check.passed) && (
        <ul className="portal-values">
          {status.checks
            .filter((check) => !check.passed)
            .map((check) => (
              <li key={check.name} className="console-warn">
                {check.detail ?? check.name}
              </li>
            ))}
        </ul>
      )}
    </div>
  );
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
