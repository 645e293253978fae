import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

/**
 * Every unknown page, and every notFound() a page throws, in the site's own layout. The request id
 * (set by proxy.ts, the same one as the X-Request-ID response header) lets support find the log line.
 */
export default async function NotFound() {
  const requestId = (await headers()).get('x-request-id');
  return (
    <>
      <h1>Page not found</h1>
      <p className="lead">There is no page at this address. The link may be mistyped, or the page may have moved.</p>
      <p>
        <Link href="/">Go to the home page</Link>, or look for it in the <Link href="/docs">documentation</Link>.
      </p>
      {requestId && (
        <p className="hint">
          If you report this, mention the request id <code>{requestId}</code>.
        </p>
      )}
    </>
  );
}
