import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SiteNav } from './_components/site/site-nav';
import { visitorSession } from './_components/auth/server-session';
import { SignedInEmailProvider } from './_components/site/signed-in-email';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Identity Service', template: '%s · Identity Service' },
  description: 'Open-source identity and access: passkeys, passwords, e-mail codes, organizations, developer portal and OAuth 2.0 / OpenID Connect.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // One session read per page view (React's request cache): the header and the page share it.
  const session = await visitorSession();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <nav aria-label="Main">
            <Link className="brand" href="/">
              Identity Service
            </Link>
            <SiteNav signedIn={session !== null} />
          </nav>
        </header>
        <main id="main">
          <SignedInEmailProvider email={session?.user.email ?? null}>{children}</SignedInEmailProvider>
        </main>
        <footer className="site-footer">Open-source identity and access service · API version v1</footer>
      </body>
    </html>
  );
}
