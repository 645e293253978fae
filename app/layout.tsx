import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { AccountNav } from './_components/auth/account-nav';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Identity Service', template: '%s · Identity Service' },
  description: 'Open-source identity and access: passkeys, passwords, e-mail codes, organizations, developer portal and OAuth 2.0 / OpenID Connect.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
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
            <Link href="/docs">Docs</Link>
            <Link href="/status">Status</Link>
            <AccountNav />
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">Open-source identity and access service · API version v1</footer>
      </body>
    </html>
  );
}
