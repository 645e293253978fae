/**
 * Bearer secrets at rest in `oidc_models` (RFC 6819 §5.1.4.1.3 and §5.2.2.3: store a hash, not the
 * credential). For node-oidc-provider's opaque artefacts the model id IS the secret: an access token,
 * a refresh token, a code, the session id in the `_session` cookie, the interaction id in its cookies.
 * So the row key is an HMAC of the id under a key derived from SESSION_SECRET (a database dump alone
 * cannot be turned back into credentials, nor checked against guesses), and the payload never holds
 * the id either: a field equal to it (`jti`) is left out and restored from the id the caller presents;
 * a field merely containing it (the interaction's `returnTo` URL), or holding another secret the
 * provider must read back (the table below), is sealed with DATA_ENCRYPTION_KEY.
 *
 * Every model is treated as secret unless listed as public here, so a model a later provider version
 * adds is protected by default.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { openSecret, sealSecret } from '@/lib/platform';

/** Models whose ids are references, not credentials: nobody presents them to gain anything. */
const PUBLIC_ID_MODELS = new Set([
  'Client', // client_id is public by definition (RFC 6749 §2.2)
  'Grant', // an internal reference; the consent list shows it, and revoking by it needs the owner's session
  'ReplayDetection', // its id is already a digest
  'ResourceServer', // a developer API's identifier (RFC 8707 resource indicator), public by definition
  'IssuedJwt', // a JWT's jti: the JWT itself is the credential, and its record carries no secret
]);

/** Other secrets inside payloads that the provider reads back: sealed, never hashed. */
const SEALED_FIELDS: Record<string, string[][]> = {
  // The session id (the `_session` cookie) the interaction began with; a device code; a PAR reference.
  Interaction: [['session', 'cookie'], ['deviceCode'], ['parJti']],
  // The logout-confirmation form's anti-forgery secret.
  Session: [['state', 'secret']],
  DeviceCode: [['userCode']],
  // Confidential clients (none may register dynamically; the developer portal will add them).
  Client: [['client_secret']],
};

/** Hashed row keys carry a version, so rows written before hashing can be told apart (migration). */
export const HASHED_ID_PREFIX = 'h1.';
const MARK = '_concealed';

interface Mark {
  /** Paths of fields that held the id itself (left out). */
  id?: string[][];
  /** Paths of sealed fields. */
  sealed?: string[][];
}

const keyHolder: { secret?: string; key?: Buffer } = {};

function hashKey(): Buffer {
  const { sessionSecret } = getConfig();
  if (keyHolder.secret !== sessionSecret) {
    keyHolder.key = Buffer.from(hkdfSync('sha256', sessionSecret, '', 'identity-service oidc_models ids v1', 32));
    keyHolder.secret = sessionSecret;
  }
  return keyHolder.key!;
}

function digest(value: string): string {
  return `${HASHED_ID_PREFIX}${createHmac('sha256', hashKey()).update(value).digest('base64url')}`;
}

export const publicIdModels = (): string[] => [...PUBLIC_ID_MODELS];

export function isSecretIdModel(model: string): boolean {
  return !PUBLIC_ID_MODELS.has(model);
}

/** The row key for a model's id: its keyed hash, or the id itself for public models. */
export function storageId(model: string, id: string): string {
  return isSecretIdModel(model) ? digest(`${model}:${id}`) : id;
}

/** Device flow user codes are looked up by value: stored as keyed hashes too. */
export function storedUserCode(userCode: string): string {
  return digest(`userCode:${userCode}`);
}

const purposeOf = (model: string, rowId: string, path: string[]) => `oidc-model:${model}:${rowId}:${path.join('.')}`;
const isPath = (a: string[], b: string[]) => a.length === b.length && a.every((segment, i) => segment === b[i]);

/** The payload as stored: without the id, with secrets sealed, and a note of what was done. */
export function concealPayload(model: string, id: string, payload: Record<string, unknown>): Record<string, unknown> {
  const secretId = isSecretIdModel(model);
  const sealedFields = SEALED_FIELDS[model] ?? [];
  const rowId = storageId(model, id);
  const mark: Required<Mark> = { id: [], sealed: [] };

  const walk = (value: unknown, path: string[]): unknown => {
    if (typeof value === 'string') {
      if (sealedFields.some((p) => isPath(p, path)) || (secretId && value.includes(id))) {
        mark.sealed.push(path);
        return sealSecret(value, purposeOf(model, rowId, path));
      }
      return value;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, String(i)]));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        if (secretId && item === id) mark.id.push([...path, key]);
        else out[key] = walk(item, [...path, key]);
      }
      return out;
    }
    return value;
  };

  const stored = walk(payload, []) as Record<string, unknown>;
  if (mark.id.length || mark.sealed.length) stored[MARK] = mark;
  return stored;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target as Record<string, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string, unknown>;
  node[path.at(-1)!] = value;
}

function getAt(target: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], target);
}

/**
 * The payload the provider stored, from a row. `id` is the id the caller looked the row up by; a
 * session found by its uid (read-only uses in the provider) has none, so its `jti` stays absent.
 */
export function revealPayload(model: string, rowId: string, stored: Record<string, unknown>, id?: string): Record<string, unknown> {
  const { [MARK]: note, ...payload } = stored;
  const mark = (note ?? {}) as Mark;
  for (const path of mark.sealed ?? []) setAt(payload, path, openSecret(String(getAt(payload, path)), purposeOf(model, rowId, path)));
  if (id !== undefined) for (const path of mark.id ?? []) setAt(payload, path, id);
  return payload;
}
