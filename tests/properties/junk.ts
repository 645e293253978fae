/** Building blocks of bad values: control characters, odd strings, header junk, wrong JSON types. */
import fc from 'fast-check';

/** Characters that make no sense in identifiers, addresses or names; NUL most of all (item 6). */
export const CONTROL = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.constantFrom('\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u000b', '\u001b', '\u001f', '\u007f', '\u0085') },
  { weight: 2, arbitrary: fc.constantFrom('\u2028', '\u2029', '\ufeff', '\u200b', '\u202e', '\ud800', '\udfff') },
);

export function inject(text: string, control: string, at: number): string {
  const position = text.length === 0 ? 0 : at % (text.length + 1);
  return `${text.slice(0, position)}${control}${text.slice(position)}`;
}

/** Odd strings for queries and path ids: control characters, unicode, escapes, lengths. */
export const ODD_STRING = fc.oneof(
  fc.tuple(fc.string({ maxLength: 12 }), CONTROL, fc.nat()).map(([text, control, at]) => inject(text, control, at)),
  fc.constantFrom('..', '.', '../../etc/passwd', '%00', '%2e%2e', '%', '%zz', '\\', '/', ' ', '', 'null', 'undefined', '-1', '0', '[]', '{}', "' or 1=1 --"),
  fc.constantFrom('ü', 'e\u0301', '😀', 'ﬀ', 'İ', '\u202eevil', '日本語', 'A'.repeat(3)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }),
  fc.integer({ min: 1025, max: 12_000 }).map((n) => 'x'.repeat(n)),
);

/**
 * One byte of a header value as fetch allows it: 0x01-0xFF without CR and LF (fast-check's
 * 'binary-ascii' stops at 0x7F, and the upper half is where byte and character lengths part).
 */
const HEADER_CHAR = fc
  .integer({ min: 1, max: 0xff })
  .filter((code) => code !== 0x0a && code !== 0x0d)
  .map((code) => String.fromCharCode(code));

/** Header values of exactly `length` characters, leading and trailing whitespace avoided (fetch trims it). */
export function headerValueOfLength(length: number): fc.Arbitrary<string> {
  return fc.string({ unit: HEADER_CHAR, minLength: length, maxLength: length }).map((s) => s.replace(/^\s|\s$/g, 'x'));
}

/** A valid header value (no NUL, CR or LF: fetch refuses those) that is otherwise anything bytes allow. */
export const HEADER_JUNK = fc.oneof(
  fc.string({ unit: HEADER_CHAR, minLength: 1, maxLength: 80 }).map((s) => s.replace(/^\s|\s$/g, 'x')),
  fc.constantFrom('é', 'ÿÿÿÿ', '\u0001', 'x\u007fy', ' ', '""', 'Bearer', 'Bearer ', 'Basic Og==', 'session=', 'session=Fe26.2**', '__proto__'),
  fc.integer({ min: 4096, max: 16_000 }).map((n) => 'h'.repeat(n)),
);

export const WRONG_VALUES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -0, 2 ** 53 + 1, -1),
  fc.string({ maxLength: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);

export const EXTRA_KEYS = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'id',
    'user_id',
    'role',
    'is_admin',
    'email_verified',
    '$where',
    'a\u0000b',
    '',
  ),
  fc.string({ maxLength: 16 }),
);
