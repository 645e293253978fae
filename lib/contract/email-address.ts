/** The one e-mail address rule: accounts, invitations and every contract that takes an address share it. */
import { z } from 'zod';

/**
 * One canonical form per address (trimmed, NFC, lower-cased) so lookups, uniqueness and rate-limit
 * subjects agree. Lower-casing the local part is a deliberate simplification: practically every
 * provider treats it case-insensitively, and it closes a class of look-alike duplicate accounts.
 */
export function canonicalEmail(raw: string): string {
  return raw.trim().normalize('NFC').toLowerCase();
}

export const emailField = z
  .string()
  .max(320)
  .transform(canonicalEmail)
  .pipe(z.email({ message: 'Enter a valid e-mail address.' }));
