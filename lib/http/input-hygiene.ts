/**
 * Control characters are refused at the edge, before any input reaches a service or the database.
 * Postgres cannot store NUL in text or jsonb at all (a NUL used to surface as a 500), and no
 * identifier, code, address, token or protocol parameter of ours legitimately holds a C0 control
 * character or DEL. One exception: free text in a body (a JSON string value, a form field value) may
 * hold tab, line feed and carriage return, as a multi-line question or a pasted address does; names
 * (object keys, parameter names), path parameters, query values and credentials may not.
 */
import type { FieldError } from '@/lib/contract/errors';

const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINE_BREAKS_AND_TAB = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MESSAGE = 'Control characters are not allowed here.';

/** A readable pointer even when the offending name holds the control character itself. */
function visible(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const refusal = (path: string): FieldError => ({ path, message: MESSAGE });

/** Names and values of path parameters or a query string: no control character at all. */
export function inspectStrictPairs(where: string, pairs: Iterable<[string, string]>): FieldError | null {
  for (const [name, value] of pairs) {
    if (ANY_CONTROL.test(name) || ANY_CONTROL.test(value)) return refusal(`${where}.${visible(name)}`);
  }
  return null;
}

/**
 * A decoded body (JSON value or form fields): keys are names, strings are free text. Walked with an
 * explicit stack, so a deeply nested body cannot exhaust the call stack.
 */
export function inspectBody(body: unknown, where = 'body'): FieldError | null {
  const pending: [string, unknown][] = [[where, body]];
  while (pending.length > 0) {
    const [path, value] = pending.pop()!;
    if (typeof value === 'string') {
      if (CONTROL_EXCEPT_LINE_BREAKS_AND_TAB.test(value)) return refusal(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([`${path}.${i}`, item]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (ANY_CONTROL.test(key)) return refusal(`${path}.${visible(key)}`);
        pending.push([`${path}.${key}`, item]);
      }
    }
  }
  return null;
}

function inspectForm(form: Iterable<[string, string]>): FieldError | null {
  for (const [name, value] of form) {
    if (ANY_CONTROL.test(name)) return refusal(`body.${visible(name)}`);
    const refused = inspectBody(value, `body.${name}`);
    if (refused) return refused;
  }
  return null;
}

export interface RequestInput {
  params?: Record<string, string>;
  query?: URLSearchParams;
  /** Decoded body: a JSON value, or form fields as an object. */
  body?: unknown;
  /** A form body with every field, repeated ones included (what a delegate sees). */
  form?: URLSearchParams;
  /** Credentials decoded from a header (e.g. HTTP Basic client credentials). */
  credentials?: Record<string, string>;
}

/** The first control character in a request's input, as a field error, or null. */
export function findControlCharacter(input: RequestInput): FieldError | null {
  return (
    inspectStrictPairs('params', Object.entries(input.params ?? {})) ??
    inspectStrictPairs('query', input.query ?? []) ??
    inspectStrictPairs('credentials', Object.entries(input.credentials ?? {})) ??
    (input.body === undefined ? null : inspectBody(input.body)) ??
    inspectForm(input.form ?? [])
  );
}

/**
 * HTTP Basic client credentials as the token endpoint decodes them (RFC 6749 §2.3.1: form-urlencoded,
 * then base64): the client id is looked up in the database.
 */
export function basicCredentials(authorization: string | null): Record<string, string> {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization ?? '');
  if (!match) return {};
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [id, secret] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  const unescape = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  };
  return { client_id: unescape(id), client_secret: unescape(secret) };
}
