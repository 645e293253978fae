'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { TextField } from './console-ui';
import { consoleHref } from './sections';

const SLUG_PATTERN = '[a-z0-9](?:[a-z0-9\\-]{0,61}[a-z0-9])?';

/** Creating an organization (session + step-up): the creator becomes the owner and lands in the new organization. */
export function CreateOrganization() {
  const router = useRouter();
  const { api, panel } = useApi();
  const { pending, error, fieldErrors, run } = useApiAction({ fields: ['name', 'slug'] });

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const slug = fieldValue(form, 'slug');
    const body = { name: fieldValue(form, 'name'), ...(slug ? { slug } : {}) };
    const result = await run(() => api.createOrganization({ body }));
    if (!result?.ok) return;
    form.reset();
    // A fresh server render: the switcher lists the new organization, which opens as the owner's.
    router.push(consoleHref(result.body.id));
  }

  return (
    <>
      <form className="stack" onSubmit={create}>
        <TextField label="Organization name" name="name" required maxLength={100} autoComplete="organization" error={fieldErrors.name} />
        <TextField
          label="Slug (optional)"
          name="slug"
          maxLength={63}
          pattern={SLUG_PATTERN}
          spellCheck={false}
          error={fieldErrors.slug}
          hint="Lowercase letters, digits and inner hyphens, such as acme-corp. Left empty, one is made from the name."
        />
        <ErrorAlert message={error} />
        <div>
          <button type="submit" disabled={pending}>
            Create organization
          </button>
        </div>
      </form>
      {panel}
    </>
  );
}
