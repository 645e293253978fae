/**
 * Shown in the webhooks section while the service runs for local development (the embedded database
 * at a loopback address): endpoints on this machine are accepted, which a production deployment
 * refuses (lib/platform/outbound.ts; docs/decisions.md, "Local development").
 */
export function LocalReceiversNote() {
  return (
    <p className="card portal-note" role="note">
      <strong>Local development:</strong> this service runs on its embedded database at a local address, so a webhook may also go to a receiver on this machine:{' '}
      <code>http://</code> or <code>https://</code> at <code>localhost</code>, <code>127.0.0.1</code> or <code>[::1]</code>. Private networks and cloud metadata
      addresses are still refused, and a production deployment (with <code>DATABASE_URL</code>) takes public HTTPS endpoints only.
    </p>
  );
}
