import { authenticatorName } from './authenticator-names';

// Day, short month, year ("23 Nov 2026"): unambiguous in every locale, unlike 11/23 vs 23/11. UTC,
// because a passkey can be created before the account (enrollment) has a time zone.
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MAX_NAME = 64;

/**
 * The name a new passkey gets unless the person chose one: what holds it (the provider or key from
 * its AAGUID, else the browser and system it was created on) and the day, so two passkeys from the
 * same kind of device, and a passkey and a session, no longer share a label.
 */
export function newPasskeyName(input: { aaguid: string; device: string; now: Date }): string {
  const holder = authenticatorName(input.aaguid) ?? input.device;
  const day = DAY.format(input.now);
  return `${holder.slice(0, MAX_NAME - day.length - 3)} · ${day}`;
}
