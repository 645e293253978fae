/**
 * Reading back the messages the dev mailbox writes (nodemailer's output: RFC 5322 headers, RFC 2047
 * encoded words, a text/plain body in quoted-printable, base64 or 7bit, alone or in a
 * multipart/alternative). Enough MIME for our own messages, not a general parser: what it cannot
 * read it leaves as it is.
 */

export interface DecodedMail {
  from: string;
  to: string;
  subject: string;
  /** The Date header as written (RFC 5322 form). */
  date: string;
  text: string;
}

/** Header name (lower case) to its value, continuation lines unfolded. */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

function bytesToText(bytes: number[], charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase(), { fatal: false }).decode(Uint8Array.from(bytes));
  } catch {
    return new TextDecoder('utf-8').decode(Uint8Array.from(bytes));
  }
}

/** Quoted-printable (RFC 2045 §6.7): soft line breaks joined, =XX bytes decoded in the part's charset. */
export function decodeQuotedPrintable(text: string, charset = 'utf-8'): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return bytesToText(bytes, charset);
}

/** RFC 2047 encoded words (=?charset?Q|B?...?=); whitespace between two adjacent words is dropped. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g;
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(word, (_all, charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? bytesToText([...Buffer.from(data, 'base64')], charset) : decodeQuotedPrintable(data.replace(/_/g, ' '), charset),
    );
}

function parameter(value: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(value ?? '');
  return match?.[1];
}

function decodeBody(body: string, headers: Map<string, string>): string {
  const charset = parameter(headers.get('content-type'), 'charset') ?? 'utf-8';
  switch ((headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body, charset);
    case 'base64':
      return bytesToText([...Buffer.from(body.replace(/\s+/g, ''), 'base64')], charset);
    default:
      return body;
  }
}

/** The text/plain content of a message or of the first text/plain part of a multipart one. */
function plainText(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = parameter(type, 'boundary');
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const inner = splitHeaders(part.replace(/^\r?\n/, ''));
      const text = plainText(inner.headers, inner.body);
      if (text) return text;
    }
    return '';
  }
  return /^text\/plain/i.test(type) ? decodeBody(body, headers).replace(/\r?\n$/, '') : '';
}

export function decodeMail(raw: string): DecodedMail {
  const { headers, body } = splitHeaders(raw);
  const header = (name: string) => decodeEncodedWords(headers.get(name) ?? '');
  return { from: header('from'), to: header('to'), subject: header('subject'), date: headers.get('date') ?? '', text: plainText(headers, body) };
}
