/**
 * Context-specific words (NIST SP 800-63B §3.1.1.2, ASVS V6.1.2 / V6.2.11): a password built from the
 * account's e-mail address or the service's own identity is one of the first guesses of anyone who
 * knows whom they attack. The list (docs/security.md, "Passwords"): the e-mail address, its local part
 * and the local part's pieces, its domain and the domain's labels, the service's name and each of its
 * words, the service's host name and each of the host's labels.
 */
import { getConfig, SERVICE_NAME } from '@/lib/config';

/** Lower case letters only: "Ada.Lovelace-1815!" and "adalovelace" are built from the same word. */
const letters = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}]/gu, '');

/** Pieces shorter than this are too common to refuse on their own ("ada", "id"). */
const MIN_WORD_LETTERS = 4;

export function contextWords(email: string): string[] {
  const [local = '', domain = ''] = email.split('@');
  const host = new URL(getConfig().baseUrl).hostname;
  // Host-like names give their labels and the hyphenated labels' pieces: "analytical-engine.example"
  // yields "analytical-engine", "analytical", "engine" and "example".
  const labels = (name: string) => [name, ...name.split('.'), ...name.split(/[.-]/)];
  const words = [email, local, ...local.split(/[._+-]/), ...labels(domain), SERVICE_NAME, ...SERVICE_NAME.split(' '), ...labels(host)];
  return [...new Set(words.map(letters).filter((word) => word.length >= MIN_WORD_LETTERS))];
}

/**
 * True when the password is one of the words with only digits and symbols around it
 * ("Lovelace1815!", "identityservice2026"), or contains the whole e-mail address or its local part.
 */
export function isBuiltFromContext(password: string, email: string): boolean {
  const skeleton = letters(password);
  const words = contextWords(email);
  if (words.includes(skeleton)) return true;
  const lower = password.normalize('NFKC').toLowerCase();
  const local = email.split('@')[0]!.toLowerCase();
  return lower.includes(email.toLowerCase()) || (local.length >= MIN_WORD_LETTERS && lower.includes(local));
}
