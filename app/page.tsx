import Link from 'next/link';
import { describeCapabilitySummary } from '@/lib/status';
import { loadCapabilityMatrix } from './_components/capability-matrix';
import { StatusBadge } from './_components/status-badge';

export const dynamic = 'force-dynamic';

interface Area {
  title: string;
  href: string;
  description: string;
  /** Capabilities that must be live (or degraded) for the area to be usable. */
  needs: string[];
  /** A second way in, said after the description (e.g. creating an account beside signing in). */
  also?: { href: string; label: string; after: string };
}

const AREAS: Area[] = [
  {
    title: 'Sign in',
    href: '/sign-in',
    description: 'Passkeys, passwords and e-mail codes on hosted pages.',
    needs: ['passkeys', 'password', 'email_otp'],
    also: { href: '/sign-up', label: 'Sign up', after: ' for a new account with a verified e-mail address.' },
  },
  {
    title: 'Admin console',
    href: '/console',
    description: 'Run your organization: members, invitations, groups, roles, policies, approvals, audit log.',
    needs: ['organizations'],
  },
  { title: 'Developer portal', href: '/portal', description: 'Applications, API keys and signed webhooks.', needs: ['developer'] },
  { title: 'Documentation', href: '/docs', description: 'API reference generated from the operation registry.', needs: [] },
  { title: 'Status', href: '/status', description: 'Live capability, readiness and launch evidence.', needs: [] },
];

export default async function HomePage() {
  const matrix = await loadCapabilityMatrix();
  const statusOf = (id: string) => matrix?.capabilities.find((c) => c.id === id)?.status ?? 'unavailable';
  const usable = (area: Area) => area.needs.length === 0 || area.needs.some((id) => ['live', 'degraded'].includes(statusOf(id)));

  return (
    <>
      <h1>Identity and access, self-hosted</h1>
      <p className="lead">
        An open-source identity service: people sign in with passkeys, passwords or e-mail codes on hosted pages, organization admins run their tenants,
        developers manage applications, API keys and webhooks, and relying parties use it as their OAuth 2.0 / OpenID Connect provider.
      </p>
      <h2>Where to go</h2>
      <ul className="cards">
        {AREAS.map((area) => (
          <li className="card" key={area.href}>
            <h3>{usable(area) ? <Link href={area.href}>{area.title}</Link> : area.title}</h3>
            <p>{area.description}</p>
            {area.also && usable(area) && (
              <p>
                <Link href={area.also.href}>{area.also.label}</Link>
                {area.also.after}
              </p>
            )}
            {!usable(area) && (
              <p>
                <StatusBadge value={area.needs.map(statusOf).includes('unavailable') ? 'unavailable' : 'planned'} /> Not available on this deployment yet.
              </p>
            )}
          </li>
        ))}
      </ul>
      {matrix && (
        <p className="hint">
          {describeCapabilitySummary(matrix.summary)} See <Link href="/status">status</Link> for the evidence.
        </p>
      )}
    </>
  );
}
