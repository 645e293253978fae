/**
 * A software WebAuthn authenticator for integration tests (the e2e journeys use Chromium's virtual
 * authenticator instead). It builds attestation and assertion responses from first principles
 * (WebAuthn Level 3 §6.1, §6.5: authenticator data, "none" attestation, ES256 signatures), with its
 * own minimal CBOR encoder, so it shares no code with the verifier under test.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

export interface Flags {
  userPresent?: boolean;
  userVerified?: boolean;
}

/** How a hand-built registration differs from an honest one (for tests of what the service stores). */
export interface CredentialShape {
  /** The credential id in the authenticator data (16 random bytes by default). */
  id?: Buffer;
  /** The id the response JSON reports (the authenticator data's by default). */
  reportedId?: string;
  /** `response.transports` as sent (`['internal']` by default). */
  transports?: unknown;
  /** Bytes of junk carried in the COSE public key as one extra map entry (none by default). */
  publicKeyPadding?: number;
}

export class SoftAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /** `aaguid`: the authenticator model it claims at registration (all zero, like Chromium's virtual one, by default). */
  constructor(
    private readonly origin: string,
    private readonly aaguid = '00000000-0000-0000-0000-000000000000',
  ) {}

  private authData(rpId: string, flags: Flags, counter: number, attested?: Buffer): Buffer {
    let bits = 0;
    if (flags.userPresent ?? true) bits |= 0x01;
    if (flags.userVerified ?? true) bits |= 0x04;
    if (attested) bits |= 0x40;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([bits]), count, attested ?? Buffer.alloc(0)]);
  }

  /** navigator.credentials.create(): returns the RegistrationResponseJSON the browser library would. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, flags: Flags = {}, shape: CredentialShape = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
        ...(shape.publicKeyPadding ? [[-99, Buffer.alloc(shape.publicKeyPadding, 0x61)] as [Cbor, Cbor]] : []),
      ]),
    );
    const id = shape.id ?? randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.from(this.aaguid.replace(/-/g, ''), 'hex'), idLength, id, coseKey]);
    const authData = this.authData(rpId, flags, 0, attested);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false }));
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, privateKey, userHandle: options.user.id, rpId, counter: 0 });
    const reportedId = shape.reportedId ?? b64url(id);
    return {
      id: reportedId,
      rawId: reportedId,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: 'transports' in shape ? shape.transports : ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): signs with the newest (or the given) credential. */
  /** `userHandle`: the handle to report instead of the credential's own (`null`: none at all). */
  get(
    options: { challenge: string; rpId?: string },
    flags: Flags & { credential?: number; corruptSignature?: boolean; origin?: string; userHandle?: string | null } = {},
  ) {
    const credential = this.credentials.at(flags.credential ?? -1);
    if (!credential) throw new Error('No credential in the soft authenticator');
    credential.counter += 1;
    const authData = this.authData(options.rpId ?? credential.rpId, flags, credential.counter);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: flags.origin ?? this.origin, crossOrigin: false }),
    );
    let signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    if (flags.corruptSignature) signature = Buffer.from(signature.map((byte, i) => (i === signature.length - 1 ? byte ^ 0xff : byte)));
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: flags.userHandle === undefined ? credential.userHandle : (flags.userHandle ?? undefined),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
