'use client';

import { useId, useState, type FormEvent } from 'react';
import { callContract } from '../_components/api/call';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { useFieldError } from '../_components/auth/field-error';
import { useApiAction } from '../_components/auth/use-api-action';
import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { ChoiceField } from './choice-field';
import { localeLabel, type Option, type OptionGroup } from './profile-options';

/** What the form edits: the fields of the profile an owner may change. */
type Profile = Pick<CallOutput<Contracts['updateOwnProfile']>, 'display_name' | 'locale' | 'timezone'>;

type Field = keyof Profile;
const FIELDS: Field[] = ['display_name', 'locale', 'timezone'];

/** What the form holds, as the API takes it: an empty choice clears the field (null). */
function asProfile(values: Record<Field, string>): Profile {
  return { display_name: values.display_name.trim() || null, locale: values.locale || null, timezone: values.timezone || null };
}

/**
 * Display name, language and time zone through updateOwnProfile (the session form of the bearer
 * updateMe). Only changed fields are sent, so the identity.user.updated event names exactly what
 * changed. Mounted outside the account context (no step-up), so it calls with the page's CSRF token.
 */
export function ProfileSection({ csrf, initial, locales, timeZones }: { csrf: string; initial: Profile; locales: Option[]; timeZones: OptionGroup[] }) {
  const nameId = useId();
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState<Record<Field, string>>({
    display_name: initial.display_name ?? '',
    locale: initial.locale ?? '',
    timezone: initial.timezone ?? '',
  });
  const [extraLocale, setExtraLocale] = useState<Option | null>(null);
  const [extraZone, setExtraZone] = useState<Option | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const { pending, error, fieldErrors, run } = useApiAction({ fields: FIELDS });
  const name = useFieldError<HTMLInputElement>(nameId, fieldErrors.display_name, `${nameId}-hint`);
  const set = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  function pickDeviceLanguage() {
    const tag = navigator.language;
    if (!locales.some((option) => option.value === tag)) setExtraLocale({ value: tag, label: localeLabel(tag) });
    set('locale')(tag);
  }

  function pickDeviceZone() {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!timeZones.some((group) => group.options.some((option) => option.value === zone))) setExtraZone({ value: zone, label: zone });
    set('timezone')(zone);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const wanted = asProfile(values);
    const changes: Partial<Profile> = Object.fromEntries(FIELDS.filter((field) => wanted[field] !== saved[field]).map((field) => [field, wanted[field]]));
    if (Object.keys(changes).length === 0) {
      setNote('Nothing has changed.');
      return;
    }
    const result = await run(() => callContract(CONTRACTS.updateOwnProfile, { body: changes }, { csrf }));
    if (!result?.ok) return;
    setSaved({ display_name: result.body.display_name, locale: result.body.locale, timezone: result.body.timezone });
    setNote('Profile saved.');
  }

  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <p className="hint">How you appear here and to the applications you allow to read your profile.</p>
      <form className="stack card auth-card" onSubmit={save}>
        <div className="auth-field">
          <label htmlFor={nameId}>Display name</label>
          <input
            ref={name.ref}
            id={nameId}
            name="display_name"
            type="text"
            autoComplete="name"
            maxLength={100}
            value={values.display_name}
            onChange={(event) => set('display_name')(event.target.value)}
            {...name.props}
          />
          {name.message}
          <p className="hint" id={`${nameId}-hint`}>
            Leave it empty to show no name.
          </p>
        </div>
        <ChoiceField
          label="Language"
          name="locale"
          autoComplete="language"
          value={values.locale}
          onChange={set('locale')}
          groups={[{ label: '', options: locales }]}
          extra={extraLocale}
          hint="For the applications you use."
          deviceButton="Use this browser’s language"
          onUseDevice={pickDeviceLanguage}
          error={fieldErrors.locale}
        />
        <ChoiceField
          label="Time zone"
          name="timezone"
          value={values.timezone}
          onChange={set('timezone')}
          groups={timeZones}
          extra={extraZone}
          hint="Listed by city: typing its first letters jumps to it."
          deviceButton="Use this device’s time zone"
          onUseDevice={pickDeviceZone}
          error={fieldErrors.timezone}
        />
        <ErrorAlert message={error} />
        <StatusNote message={note} />
        <div>
          <button type="submit" disabled={pending}>
            Save profile
          </button>
        </div>
      </form>
    </section>
  );
}
