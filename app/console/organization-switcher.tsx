'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { consoleHref } from './sections';
import type { MyOrganization } from './contract-types';

/**
 * Which organization the console shows, kept in the URL (/console?organization=<id>). A plain GET
 * form: choosing does nothing until "Open" (a select that navigates on change traps keyboard users),
 * and it works before scripts load.
 */
export function OrganizationSwitcher({ organizations, selectedId }: { organizations: MyOrganization[]; selectedId: string | null }) {
  const id = useId();
  const router = useRouter();
  const [choice, setChoice] = useState(selectedId ?? organizations[0]?.id ?? '');

  function open(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (choice) router.push(consoleHref(choice));
  }

  return (
    <form className="console-switcher" method="get" action="/console" onSubmit={open}>
      <div className="auth-field">
        <label htmlFor={id}>Organization</label>
        <div className="auth-actions">
          <select id={id} name="organization" value={choice} onChange={(event) => setChoice(event.target.value)}>
            {organizations.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name} ({organization.role_name})
              </option>
            ))}
          </select>
          <button type="submit" className="auth-secondary">
            Open
          </button>
        </div>
      </div>
    </form>
  );
}
