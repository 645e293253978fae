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

export interface BenchBrowser {
  /** `session=<sealed value>`, ready for a Cookie header. */
  cookie: string;
  csrf: string;
}

/** Signs in with a password over HTTP: the session cookie and the CSRF token of the new session. */
export async function signInWithPassword(base: string, email: string, password: string): Promise<BenchBrowser> {
  const response = await fetch(`${base}/api/auth/signin/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 201) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('session='))!;
  return { cookie, csrf: ((await response.json()) as { csrf_token: string }).csrf_token };
}
