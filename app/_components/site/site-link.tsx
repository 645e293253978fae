'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/**
 * A header link that says which area the page belongs to (aria-current="page" on /portal and on
 * everything under it), so a screen reader and the eye both know where they are.
 */
export function SiteLink({ href, children }: { href: string; children: string }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}
