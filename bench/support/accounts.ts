import { devMailboxCode } from './server';

/** A JSON POST to the app with its Origin (unsafe browser operations require it); throws unless 2xx. */
export async function api(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Enrolls `email` through the API (code from the dev mailbox); `finish` sets the credential. */
export async function enroll(base: string, dataDir: string, email: string, finish: (token: Record<string, string>) => Promise<void>) {
  const { enrollment_token } = await api(base, '/api/auth/enrollment/start', { email });
  const token = { 'x-enrollment-token': enrollment_token };
  await api(base, '/api/auth/enrollment/verify-email', { code: devMailboxCode(dataDir, email) }, token);
  await finish(token);
}
