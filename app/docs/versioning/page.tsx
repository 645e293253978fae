import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Versioning' };

export default function VersioningPage() {
  return (
    <>
      <h1>Versioning policy</h1>
      <p className="lead">The current API version is v1, and v1 is the only supported version.</p>
      <h2>Requesting a version</h2>
      <p>
        Send <code>X-Service-API-Version: v1</code>, or no header at all. Any other value is refused with <code>400</code> and the error code{' '}
        <code>unsupported_api_version</code>, before authentication or any data access.
      </p>
      <h2>What responses tell you</h2>
      <ul>
        <li>
          <code>X-Service-API-Version</code>: the version that answered.
        </li>
        <li>
          <code>X-Service-API-Lifecycle</code>: <code>current</code>, <code>deprecated</code> or <code>sunset-scheduled</code>.
        </li>
        <li>
          <code>Deprecation</code> (RFC 9745) and <code>Sunset</code> (RFC 8594) on operations that are being retired, with a link to this page.
        </li>
      </ul>
      <h2>Deprecation notice</h2>
      <p>
        An operation or version is announced as deprecated at least <strong>180 days</strong> before it is removed: the <code>Sunset</code> date is never less
        than 180 days after the <code>Deprecation</code> date. Versioned routes live under <code>/api/v1</code>; SCIM lives under <code>/scim/v2</code> and
        follows SCIM 2.0.
      </p>
    </>
  );
}
