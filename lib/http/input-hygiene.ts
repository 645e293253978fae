/**
 * Characters refused at the edge, before any input reaches a service or the database.
 *
 * Control characters: Postgres cannot store NUL in text or jsonb at all (a NUL used to surface as a
 * 500), and no identifier, code, address, token or protocol parameter of ours legitimately holds a C0
 * control character or DEL. One exception: free text in a body (a JSON string value, a form field
 * value) may hold tab, line feed and carriage return, as a multi-line question or a pasted address
 * does; names (object keys, parameter names), path parameters, query values and credentials may not.
 *
 * Text that is not well-formed UTF-16 (a lone surrogate, which JSON's `\ud800` escape can produce):
 * it has no UTF-8 form, so it would be stored as U+FFFD or break whatever encodes it next
 * (encodeURIComponent throws: it was a 500). Refused everywhere, free text included.
 */
import type { FieldError } from '@/lib/contract/errors';

const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINE_BREAKS_AND_TAB = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** With the `u` flag a surrogate pair is one code point: this matches unpaired surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL_MESSAGE = 'Control characters are not allowed here.';
const SURROGATE_MESSAGE = 'Text must be well-formed Unicode: a lone surrogate (\\ud800-\\udfff) is not allowed.';

/** A readable pointer even when the offending name holds the refused character itself. */
function visible(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Why `text` is refused under `control` (the control-character rule of its place), or null. */
function refusalMessage(text: string, control: RegExp): string | null {
  if (control.test(text)) return CONTROL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

/** A name (key, parameter name) or strict value: no control character at all, well-formed. */
const strictRefusal = (text: string) => refusalMessage(text, ANY_CONTROL);
/** Free text: line breaks and tab allowed, well-formed. */
const freeTextRefusal = (text: string) => refusalMessage(text, CONTROL_EXCEPT_LINE_BREAKS_AND_TAB);

const refusal = (path: string, message: string): FieldError => ({ path, message });

/** Names and values of path parameters or a query string: no control character at all. */
export function inspectStrictPairs(where: string, pairs: Iterable<[string, string]>): FieldError | null {
  for (const [name, value] of pairs) {
    const message = strictRefusal(name) ?? strictRefusal(value);
    if (message) return refusal(`${where}.${visible(name)}`, message);
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
      const message = freeTextRefusal(value);
      if (message) return refusal(path, message);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([`${path}.${i}`, item]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const message = strictRefusal(key);
        if (message) return refusal(`${path}.${visible(key)}`, message);
        pending.push([`${path}.${key}`, item]);
      }
    }
  }
  return null;
}

function inspectForm(form: Iterable<[string, string]>): FieldError | null {
  for (const [name, value] of form) {
    const message = strictRefusal(name);
    if (message) return refusal(`body.${visible(name)}`, message);
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

/** The first refused character (a control character, a lone surrogate) in a request's input, as a field error, or null. */
export function findRefusedCharacter(input: RequestInput): FieldError | null {
  return (
    inspectStrictPairs('params', Object.entries(input.params ?? {})) ??
    inspectStrictPairs('query', input.query ?? []) ??
    inspectStrictPairs('credentials', Object.entries(input.credentials ?? {})) ??
    (input.body === undefined ? null : inspectBody(input.body)) ??
    inspectForm(input.form ?? [])
  );
}
