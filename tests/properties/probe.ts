/**
 * Turns a draft into a real request, with the credentials of one mode, and sends it through the
 * operation's route binding (serve(): the entry point Next calls, which also picks among operations
 * sharing a method and path), in-process, on the test database.
 */
import { isUnsafe, type AnyOperation } from '@/lib/contract/operation';
import { serve } from '@/lib/http/serve';
import { ORIGIN } from '../helpers/http';
import type { Draft } from './drafts';
import type { Credentials } from './fixtures';

/** How the request authenticates: always without and with a session, plus the operation's own credential. */
export type Mode = 'anonymous' | 'session' | 'bearer' | 'enrollment_token' | 'recovery_token' | 'scim_token';

export function modesFor(op: AnyOperation): Mode[] {
  const modes: Mode[] = ['anonymous', 'session'];
  if (op.auth.kind === 'bearer' || op.auth.kind === 'enrollment_token' || op.auth.kind === 'recovery_token' || op.auth.kind === 'scim_token')
    modes.push(op.auth.kind);
  return modes;
}

export interface Probe {
  method: string;
  url: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  body: string | null;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

let clients = 0;

function credentialHeaders(op: AnyOperation, mode: Mode, credentials: Credentials): Record<string, string> {
  switch (mode) {
    case 'anonymous':
      return {};
    case 'session':
      return { cookie: credentials.person.browser.cookie, 'x-csrf-token': credentials.person.browser.csrf };
    case 'bearer':
      // Organization reads answer only a token bound to the organization in their path.
      return { authorization: `Bearer ${op.tenant ? credentials.organization.bearer : credentials.bearer}` };
    case 'enrollment_token':
      return { 'x-enrollment-token': credentials.enrollmentToken };
    case 'recovery_token':
      return { 'x-recovery-token': credentials.recoveryToken };
    case 'scim_token':
      return { authorization: `Bearer ${credentials.organization.scimToken}` };
  }
}

/** As a client would send it: UTF-8 bytes, percent-encoded (a lone surrogate becomes U+FFFD). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/** Form and query encoding: arrays as repeated keys, other non-strings as JSON text. */
function formOf(value: unknown): URLSearchParams {
  const form = new URLSearchParams();
  if (typeof value !== 'object' || value === null) {
    form.append('value', JSON.stringify(value) ?? '');
    return form;
  }
  for (const [key, item] of Object.entries(value)) {
    for (const part of Array.isArray(item) ? item : [item]) form.append(key, typeof part === 'string' ? part : (JSON.stringify(part) ?? ''));
  }
  return form;
}

export function probeOf(op: AnyOperation, mode: Mode, draft: Draft, credentials: Credentials): Probe {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => percentEncode(draft.params[name] ?? ''));
  const query = [formOf(draft.query).toString(), draft.rawQuery ?? ''].filter(Boolean).join('&');
  let body: string | null = null;
  let contentType: string | null = null;
  if (isUnsafe(op.method) && draft.body) {
    if ('text' in draft.body) body = draft.body.text;
    else if (draft.body.encoding === 'form') [body, contentType] = [formOf(draft.body.value).toString(), 'application/x-www-form-urlencoded'];
    else [body, contentType] = [JSON.stringify(draft.body.value) ?? 'null', 'application/json'];
  }
  if (draft.contentType !== undefined) contentType = draft.contentType;
  clients += 1;
  const headers: Record<string, string | null> = {
    // Each request from its own address: per-client buckets measure one request, not the whole suite.
    'x-forwarded-for': `2001:db8:f::${clients.toString(16)}`,
    ...(op.origin === 'none' ? {} : { origin: ORIGIN }),
    ...(contentType !== null && body !== null ? { 'content-type': contentType } : {}),
    ...credentialHeaders(op, mode, credentials),
    ...draft.headers,
  };
  return {
    method: op.method,
    url: `${ORIGIN}${path}${query ? `?${query}` : ''}`,
    params: draft.params,
    headers: Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null)),
    body,
  };
}

const bindings = new Map<string, ReturnType<typeof serve>>();

export async function send(op: AnyOperation, probe: Probe): Promise<Answer> {
  let binding = bindings.get(op.path);
  if (!binding) bindings.set(op.path, (binding = serve(op.path)));
  const request = new Request(probe.url, { method: probe.method, headers: probe.headers, body: probe.body });
  const response = await binding[op.method](request, { params: Promise.resolve(probe.params) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const excerpt = (text: string, max = 300) => (text.length > max ? `${JSON.stringify(text.slice(0, max))}... (${text.length} chars)` : JSON.stringify(text));

/** A failing request as a reader needs it: short enough to read, exact enough to replay. */
export function describeExchange(probe: Probe, answer: Answer): string {
  const headers = Object.entries(probe.headers).map(([name, value]) => `${name}: ${excerpt(value, 80)}`);
  return [
    `${probe.method} ${excerpt(probe.url, 200)}`,
    ...(Object.keys(probe.params).length ? [`params ${excerpt(JSON.stringify(probe.params), 200)}`] : []),
    ...headers.map((h) => `  ${h}`),
    ...(probe.body !== null ? [`body ${excerpt(probe.body, 200)}`] : []),
    `-> ${answer.status} ${answer.headers.get('content-type') ?? '(no content type)'} X-Request-ID ${answer.headers.get('x-request-id') ?? '(none)'} ${excerpt(answer.text, 200)}`,
  ].join('\n');
}
