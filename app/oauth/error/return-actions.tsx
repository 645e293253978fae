import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

type ContinueTo = CallOutput<Contracts['getAuthorizationReturn']>['continue_to'];

/**
 * The way back to an application whose redirect URIs this service does not vouch for: the person
 * chooses. A link for the query and fragment response modes, a plain form for form_post (no script:
 * nothing happens without the click).
 */
export function ReturnActions({ host, to }: { host: string; to: ContinueTo }) {
  const label = `Continue to ${host}`;
  return (
    <div className="auth-actions">
      {to.method === 'GET' ? (
        <a className="auth-button-link" href={to.url} rel="noreferrer">
          {label}
        </a>
      ) : (
        <form method="post" action={to.url}>
          {Object.entries(to.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit">{label}</button>
        </form>
      )}
      <a href="/">Cancel</a>
    </div>
  );
}
