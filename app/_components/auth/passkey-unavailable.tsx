/** Said instead of showing passkey buttons when the browser has no WebAuthn. */
export function PasskeyUnavailable({ alternative }: { alternative: string }) {
  return <p className="hint auth-note">This browser can&rsquo;t create or use passkeys. {alternative}</p>;
}
